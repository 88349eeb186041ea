/**
 * Stop words dropped from natural-language queries, per language: English, German, French,
 * Spanish, Italian, Portuguese, Dutch, and the particles ICU segments out of Japanese and Chinese.
 * Function words and question words only: a word that can carry the topic ("name", "time") stays.
 */
const STOP_LISTS: Record<string, string> = {
  en: `a about above after again against all am an and any are aren't as at be because been before being below between both but by can
    could couldn't did didn't do does doesn't doing don't down during each few for from further had hasn't has have haven't having he her here
    hers herself him himself his how i if in into is isn't it it's its itself just let's me more most my myself no nor not now of off on once
    only or other ought our ours ourselves out over own same shall she should so some such than that that's the their theirs them themselves
    then there these they this those through to too under until up us very was wasn't we were weren't what when where which while who whom
    whose why will with won't would you your yours yourself yourselves ever also yet may might must s t d ll m re ve`,
  de: `der die das den dem des ein eine einer eines einem einen und oder aber ist sind war waren wird werden wurde hat haben hatte ich du er sie
    es wir ihr mich mir dich dir sich uns euch mein dein sein ihr unser nicht kein keine zu zum zur von vom mit bei aus auf für über unter
    an am im in ins als wie wann wo was wer warum welche welcher welches welchen welchem dieser diese dieses diesen diesem dass ob wenn auch
    noch nur schon so da`,
  fr: `le la les un une des du de d l et ou mais est sont était étaient être a ai as ont avait je tu il elle nous vous ils elles me te se moi toi
    lui leur ce cet cette ces mon ma mes ton ta tes son sa ses notre votre ne pas plus que qui quoi quand où comment pourquoi quel quelle
    quels quelles dans en au aux pour par sur avec sans sous chez y`,
  es: `el la los las un una unos unas y o pero es son era eran ser estar está están fue han ha he yo tú él ella nosotros vosotros ellos ellas me
    te se mi mis tu tus su sus nuestro no que qué quien quién cuando cuándo donde dónde como cómo por porqué cual cuál de del al en con sin
    para sobre lo le les`,
  it: `il lo la i gli le un uno una e o ma è sono era erano essere ha hanno ho io tu lui lei noi voi loro mi ti si mio mia tuo tua suo sua non che
    chi quando dove come perché quale di del della dei delle al alla in con per su da`,
  pt: `o a os as um uma uns umas e ou mas é são era eram ser estar está foi tem têm eu tu ele ela nós vós eles elas me te se meu minha seu sua
    não que quem quando onde como porque qual de do da dos das ao em no na nos nas com sem para por sobre`,
  nl: `de het een en of maar is zijn was waren wordt worden werd heeft hebben had ik jij je hij zij ze wij we jullie mij me mijn jouw zijn haar
    ons niet geen te van met bij uit op voor over onder aan in als hoe wanneer waar wat wie waarom welke dat die dit deze ook nog`,
  ja: `の は が を に で と も へ や から まで より か ね よ な だ です ます た て し いる ある する こと これ それ あれ この その あの 何 どう どこ いつ`,
  zh: `的 了 是 在 和 与 或 吗 呢 吧 啊 我 你 他 她 它 们 这 那 哪 什么 怎么 为什么 谁 有 也 都 就 还`,
};

/** Every stop word of {@link STOP_LISTS}, lower case. */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  Object.values(STOP_LISTS)
    .flatMap((l) => l.split(/\s+/))
    .filter(Boolean)
    .flatMap((w) => [w, ...(w.includes("'") ? [w.replace(/'/g, '')] : [])]),
);

