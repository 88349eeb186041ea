import type { StoreContext } from '../store/context.js';
import { MindError } from '../errors.js';
import { analyzeQuery } from './analyze.js';
import { toFrame, type SearchHit, type SearchOptions } from '../frame.js';
import { matchedShare, searchFrames } from './search.js';
import { nearestFrames } from './vectors.js';

/**
 * The relevance floor of the per-prompt recall (README "Recall per prompt"), measured on
 * bench/probes/prompt-recall.json by bench/prompt-recall.mjs. A search hit is injected for a
 * prompt only when both hold:
 *
 * - it holds at least {@link PROMPT_MIN_SHARE} of the prompt's topic words: the query's words
 *   without stop words (analyze.ts) and without {@link TASK_WORDS} (what to do, not what about),
 *   matched as the index matches them (FTS5 porter stemming, CJK segmentation) in the frame's own
 *   text and tags (not the conversation context the index holds beside them);
 * - its BM25 is at least {@link PROMPT_MIN_BM25_RATIO} of the best hit's (a frame far behind the best
 *   match is not about the same thing);
 *
 * at most {@link PROMPT_MAX_ITEMS}, in rank order. A prompt with no topic word ("run it again",
 * "thanks, looks good") gets nothing.
 *
 * With the embeddings plug-in and the prompt's vector ({@link promptHits}), the frames whose cosine
 * similarity to the prompt is at least {@link PROMPT_MIN_COSINE} (and within
 * {@link PROMPT_MIN_COSINE_RATIO} of the best frame's) are added after the lexical ones, so a prompt in
 * another language than the frame ("Welche Datenbank benutzen wir?" for "the database is postgres
 * 16") can find it; the same prompt with no topic word still gets nothing.
 */

/** Share of the prompt's topic words a frame must hold. */
export const PROMPT_MIN_SHARE = 0.5;
/** A frame's BM25 relative to the best hit's, at least. */
export const PROMPT_MIN_BM25_RATIO = 0.7;
/** Frames injected for one prompt at most. */
export const PROMPT_MAX_ITEMS = 3;
/**
 * Words of a prompt that say what to do rather than what about (English verbs of asking and
 * editing (make, fix, delete, rename, refactor, summarize...), light verbs (gone, took, came, said,
 * felt), vague nouns ("what kind of", "which type of"), and acknowledgements: "looks good", "yes, done";
 * the same in French and German, with "now", "still", "again": "quel bundler on utilise maintenant ?"
 * is about "bundler" as "what test runner do we use now?" is about "test runner", and without them a
 * turn holding only "bundler" met a third of its words, under the floor). The light verbs and vague nouns:
 * LoCoMo's evidence delivered 0.529 -> 0.535 on the first 40 questions of each conversation
 * (bench/memory-e2e.mjs (a); "How many times has Melanie gone to the beach?" holds "gone", which no
 * turn about the beach does), bench/prompt-recall.mjs unchanged. Measured: without them the
 * floor is met by "run it again" through any frame that says "runs", by "add a test" through every
 * frame about tests, and by "thanks, looks good" through every "Good, now let me…" of a history.
 */
export const TASK_WORDS: ReadonlySet<string> = new Set(
  `use uses used using make makes made making get gets got run runs running ran add adds added adding new let lets write writes wrote
   check checks go goes going work works fix fixes fixed open change changes changed file files function functions return returns thing
   things way time times many much please need needs want wants try again still now here there like just really one also see show look
   tell explain help think know sure okay ok thanks thank good great nice cool fine looks look looking yes yeah yep perfect awesome done
   delete deletes deleted deleting remove removes removed removing rename renames renamed renaming update updates updated updating create creates
   created creating edit edits edited editing modify modified move moves moved moving replace replaces replaced replacing refactor refactored
   implement implements implemented summarize summarise summary clean cleanup print list lists
   gone went take takes took taken taking come comes came coming give gives gave given giving say says said saying feel feels felt
   kind kinds type types sort sorts
   utilise utilises utilisons utilisez utilisent utiliser utilisé utilisée utilisés fait fais faisons faites font faire refais refaire
   tourne tournes tournons tournez tournent tourner marche marchent fonctionne fonctionnent encore toujours maintenant actuellement ici aussi
   déjà merci bien bon bonne oui ouais ok d'accord peux peut pouvons pouvez peuvent dois doit devons devez faut veux veut voulons voulez
   besoin lance lancer relance relancer ajoute ajouter supprime supprimer corrige corriger vérifie vérifier montre montrer explique
   expliquer dis dire change changer modifie modifier renomme renommer crée créer mets mettre regarde regarder essaie essayer
   benutze benutzt benutzen verwende verwendet verwenden nutze nutzt nutzen mache machst macht machen gemacht läuft laufen laufe
   jetzt gerade nun noch wieder immer hier dort schon bitte danke gut ja nein okay kann kannst können soll sollen muss müssen will willst
   wollen brauche brauchst brauchen gibt geben zeig zeige zeigen erklär erkläre erklären ändere ändern füge hinzufügen lösche löschen
   prüfe prüfen sag sage sagen schau schaue schauen probier probiere probieren erstelle erstellen`.split(/\s+/),
);

/** The prompt's topic words: content words (stop words dropped by analyze.ts) that are not {@link TASK_WORDS}. */
export function topicWords(prompt: string): string[] {
  return analyzeQuery(prompt).words.filter((w) => !TASK_WORDS.has(w.toLowerCase()));
}

/** The hits that pass the floor (see the module comment), in their order, at most {@link PROMPT_MAX_ITEMS}. */
export function promptFloor(ctx: StoreContext, prompt: string, hits: readonly SearchHit[]): SearchHit[] {
  const words = topicWords(prompt);
  if (!words.length || !hits.length) return [];
  const ids = JSON.stringify(hits.map((h) => h.id));
  const holding = ctx.stmt('SELECT rowid AS id FROM frames_fts WHERE frames_fts MATCH ? AND rowid IN (SELECT value FROM json_each(?))');
  const held = new Map<number, number>();
  // the frame's own text and tags, not the conversation context the index also holds for it
  for (const w of words) for (const r of holding.all(`{content tags} : "${w.replace(/"/g, '')}"`, ids) as Array<{ id: number }>) held.set(r.id, (held.get(r.id) ?? 0) + 1);
  const best = Math.max(0, ...hits.map((h) => -h.bm25));
  return hits.filter((h) => (held.get(h.id) ?? 0) / words.length >= PROMPT_MIN_SHARE && best > 0 && -h.bm25 >= PROMPT_MIN_BM25_RATIO * best).slice(0, PROMPT_MAX_ITEMS);
}

/**
 * Cosine floor of the vector side (-1..1), measured by bench/prompt-recall.mjs on
 * bench/probes/prompt-recall.json and bench/probes/prompt-recall-xlang.json with the loopback
 * stand-in model (not a real one: README "Recall per prompt"). A cosine depends on the model: set
 * `HIVE_MIND_PROMPT_MIN_COSINE` after running the bench against your endpoint.
 */
export const PROMPT_MIN_COSINE = 0.4;
/** A vector hit's cosine relative to the best vector hit's, at least (a frame far behind the nearest is not about the same thing). */
export const PROMPT_MIN_COSINE_RATIO = 0.9;

/** Options of {@link promptHits}. */
export interface PromptHitsOptions {
  /** The prompt's vector (normalized; Mind.embedQuery): the vector side runs only with it and the plug-in. */
  queryVector?: Float32Array;
  /** Cosine floor of the vector side. Default {@link PROMPT_MIN_COSINE}. */
  minCosine?: number;
  scopes?: SearchOptions['scopes'];
  /** Frame ids not to return (what the session was given). */
  exclude?: readonly number[];
}

/**
 * The frames to inject for `prompt`: the search hits that pass {@link promptFloor}, then the frames
 * near `queryVector` that pass the cosine floor (module comment), none of `exclude`, at most
 * {@link PROMPT_MAX_ITEMS}. A prompt with no topic word gets nothing, whatever its vector; a prompt
 * with no searchable word gets only vector hits. Throws `INVALID` for a bad option.
 */
export function promptHits(ctx: StoreContext, prompt: string, opts: PromptHitsOptions = {}): SearchHit[] {
  const minCosine = opts.minCosine ?? PROMPT_MIN_COSINE;
  if (!(minCosine >= -1 && minCosine <= 1)) throw new MindError(`promptHits option \`minCosine\` must be a number in -1..1, got ${opts.minCosine}`, 'INVALID');
  if (!topicWords(prompt).length) return [];
  const skip = new Set(opts.exclude ?? []);
  const scopes = opts.scopes && opts.scopes.length ? { scopes: opts.scopes } : {};
  let lexical: SearchHit[] = [];
  try {
    lexical = promptFloor(ctx, prompt, searchFrames(ctx, prompt, { limit: 40, ...scopes }).filter((h) => !skip.has(h.id)));
  } catch (e) {
    if ((e as { code?: string }).code !== 'EMPTY_QUERY') throw e;
  }
  const cfg = ctx.config.embeddings;
  if (!opts.queryVector || !cfg || lexical.length >= PROMPT_MAX_ITEMS) return lexical.slice(0, PROMPT_MAX_ITEMS);
  const near = nearestFrames(ctx, cfg, opts.queryVector, { limit: PROMPT_MAX_ITEMS + skip.size + lexical.length, minCosine, ...scopes });
  const best = near[0]?.cosine ?? 0;
  const have = new Set(lexical.map((h) => h.id));
  const { words } = analyzeQuery(prompt);
  const vector = near
    .filter((n) => !skip.has(n.frame.id) && !have.has(n.frame.id) && n.cosine >= PROMPT_MIN_COSINE_RATIO * best)
    .map((n): SearchHit => ({ ...toFrame(n.frame), bm25: 0, matched: matchedShare(n.frame.content, words), score: n.cosine }));
  return [...lexical, ...vector].slice(0, PROMPT_MAX_ITEMS);
}
