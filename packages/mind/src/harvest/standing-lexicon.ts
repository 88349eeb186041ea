/**
 * The words of the standing-memory rules (standing.ts), one row per language the hooks see:
 * English, German, French, Spanish, Italian, Portuguese, Dutch, Japanese, Chinese, Korean. Word
 * lists are one signal among the structural ones (who speaks, the sentence's form, what follows,
 * a value or a name in it); each list names a role in a sentence, not a verdict.
 *
 * Entries are lower-case regular-expression fragments. In the Latin-script rows an entry matches
 * as whole words (a letter or digit on either side stops it, so accents are safe: JavaScript's
 * `\b` is ASCII-only); in the CJK rows it matches anywhere. Adding a language is one row.
 */

/** The roles a phrase can play (the rows' fields). */
export interface LangWords {
  /** The rule holds beyond this request: "from now on", "whenever", "every time", "by default", "in this repo". */
  scope: string[];
  /** Frequency adverbs that make an imperative a rule: "always", "never". */
  always: string[];
  /** A negated imperative: "don't", "do not", "no more". */
  dont: string[];
  /** Imperative verbs that open an instruction (base or imperative forms). */
  verbs: string[];
  /** Obligation: "must", "should", "has to", "il faut". */
  modal: string[];
  /** A clause of a recurring situation: "when", "whenever", "if", "before you", "after each". */
  when: string[];
  /** Contrast and order inside a rule: "instead of", "rather than", "not", "first ... then". */
  contrast: string[];
  /** About now or a thing just done: "again", "for now", "this time", "last", "until". */
  oneOff: string[];
  /** Idioms that hold a rule word and are no rule: "never mind", "always a pleasure", "no worries". */
  idioms: string[];
  /** A preference about oneself: "I prefer", "I'd rather", "I like ... better". */
  prefer: string[];
  /** An explicit memory request opening a message: "remember that", "keep in mind that", "note that". */
  remember: string[];
  /** The marks of a critical memory opening a message before a colon: "critical", "important", "remember". */
  critical: string[];
  /** Nouns of the work or of the user that anchor a rule ("tests", "commit", "answers", "me"). */
  work: string[];
  /** The agent acknowledging a lasting rule: "noted", "from now on I'll", "I'll remember". */
  ack: string[];
  /** Status of a turn: "tests pass", "committed", "done", "clean", "works". */
  status: string[];
  /** A switch, a replacement, a pin: "switched to", "replaced X with", "migrated", "pinned". */
  change: string[];
  /** Something the agent built and named: "added `parseArgs()` to src/cli.ts", "created docs/refactor.md". */
  built: string[];
  /** A cause stated after the fact: "was caused by", "the root cause was", "came from". */
  cause: string[];
  /** Where something lives or runs: "is served at", "runs on", "listens on", "lives in". */
  where: string[];
  /** A bare copula or a verb of use that states a value ("is", "uses", "requires", "allows"): a fact only beside a value and without a status. */
  copula: string[];
  /** A recurring schedule or a precedence: "every Monday", "nightly", "in declaration order", "first match wins". */
  recurring: string[];
  /** The agent narrating what it is about to do, or offering: "let me", "next I'll", "want me to". */
  narration: string[];
  /** A guess: "maybe", "probably", "I think". */
  hedge: string[];
  /** Told about oneself in the past: "I've always", "never been", "never thought". */
  narrative: string[];
}

export type Lang = 'en' | 'de' | 'fr' | 'es' | 'it' | 'pt' | 'nl' | 'ja' | 'zh' | 'ko';

const EN: LangWords = {
  scope: [
    'from now on', 'going forward', 'moving forward', 'in (?:the )?future', 'from here on(?: out)?', 'whenever', 'every time', 'each time', 'any ?time',
    'by default', 'as a rule', 'in general', 'for all (?:future )?\\w+', 'in (?:this|our|the) (?:repo|repository|project|codebase|code ?base|monorepo|workspace|team|company|org)',
    'across the (?:repo|codebase|project)', 'everywhere', 'at all times', 'no matter what',
  ],
  always: ['always', 'never', "don'?t ever", 'do not ever', 'never ever', 'at no point'],
  dont: ["don'?t", 'do not', 'dont', 'never', 'no more', 'stop', 'avoid', 'refrain from', 'no'],
  verbs: [
    'use', 'run', 'write', 'keep', 'add', 'answer', 'reply', 'respond', 'speak', 'talk', 'explain', 'ask', 'call', 'name', 'prefix', 'suffix',
    'format', 'indent', 'wrap', 'commit', 'push', 'pull', 'merge', 'rebase', 'squash', 'tag', 'deploy', 'release', 'publish', 'ship', 'test', 'lint',
    'check', 'verify', 'validate', 'build', 'compile', 'install', 'update', 'upgrade', 'pin', 'bump', 'import', 'export', 'log', 'print', 'comment',
    'document', 'mention', 'include', 'exclude', 'put', 'place', 'store', 'save', 'read', 'edit', 'modify', 'change', 'touch', 'delete', 'remove',
    'rename', 'move', 'copy', 'create', 'generate', 'open', 'close', 'start', 'restart', 'show', 'hide', 'display', 'return', 'throw', 'raise',
    'catch', 'handle', 'prefer', 'avoid', 'skip', 'ignore', 'mock', 'stub', 'follow', 'match', 'sort', 'order', 'replace', 'append', 'prepend',
    'insert', 'split', 'quote', 'escape', 'encode', 'cache', 'retry', 'limit', 'batch', 'send', 'post', 'fetch', 'query', 'sanitize', 'clean',
    'reset', 'refactor', 'port', 'migrate', 'convert', 'translate', 'summarize', 'list', 'cite', 'link', 'reference', 'notify', 'tell', 'let', 'make',
    'be', 'do', 'set', 'pass', 'wait', 'declare', 'define', 'type', 'annotate', 'target', 'support', 'require', 'stick', 'double-check', 'review',
    'ping', 'structure', 'group', 'bundle', 'minify', 'serve', 'host', 'route', 'sign', 'encrypt', 'hash', 'mark', 'label', 'describe', 'go', 'work',
    'stay', 'treat', 'leave', 'give', 'take', 'get', 'stop',
  ],
  modal: ['must', "mustn'?t", 'should', "shouldn'?t", 'have to', 'has to', 'needs? to', 'ought to', 'is required to', 'are required to', 'may not'],
  when: ['when(?:ever)?', 'if', 'before', 'after', 'once', 'while', 'unless', 'for (?:each|every|any)', 'each time', 'every time'],
  contrast: ['instead of', 'rather than', 'instead', 'not', 'no', 'only', 'except', 'first\\b[^.!?]{0,80}?\\bthen', 'before', 'after', 'unless', 'but not'],
  oneOff: [
    'again', 'for now', 'right now', 'for the moment', 'at the moment', 'this time', 'today', 'tonight', 'yet', 'just now', 'temporarily', 'for this (?:one|task|pr|change|session)',
    'until', 'till', 'as a first step', 'last (?:change|commit|edit|one|step|thing|time|part)', 'the (?:above|previous|last)(?! \\d)', '(?:see|as|shown) above', 'you just', 'what you did',
    'this (?:one|change|file|fix|edit|commit|line|part|thing|stuff|bit|function|test|component|block|section|mess|version|time|pr|branch|issue|bug|error|output|plan)',
    'that (?:one|change|file|fix|edit|commit|line|part|thing|stuff|bit|function|test|component|block|section|mess|version|last)',
    'these (?:changes|files|lines|tests|ones)', 'those (?:changes|files|lines|tests|ones)',
    '(?:revert|undo|redo|fix|do|change|remove|delete|keep|try|check|move|drop|rename|finish|commit|push|rerun|re-run|open|close|copy|run|test|show|use|add|make|put|read|edit|update|send|save|start|stop|kill|merge|ship|build|deploy|review|clean|delete) (?:it|them|those|these|(?:this|that)(?=\\s*(?:[.,;:!?)]|$|again|in |to |for |back|up|out|now|here|there|one|instead|first|too|as well)))',
    'when (?:you(?:\'re| are)|it(?:\'s| is)) (?:done|finished|ready)', 'once (?:you(?:\'re| are)|it(?:\'s| is)) (?:done|finished|ready)', 'after that',
  ],
  idioms: [
    'never mind', 'nevermind', 'let me know', "can'?t wait", 'always a pleasure', 'no worries', "don'?t worry", 'do not worry', 'no problem', 'never again\\??', 'as always', 'always here',
    "don'?t mention it", 'never heard', 'never knew', 'never thought', 'better late than never', 'always (?:a|an|so|such|the) ', 'no way', "don'?t bother",
  ],
  prefer: [
    'i (?:much |really |strongly )?prefer', "i'?d (?:much |really )?rather", 'i would (?:much )?rather', 'i like (?:it )?(?:better|more) when', 'i like it when you', "i don'?t like it when you",
    "i (?:really )?(?:hate|dislike) (?:it )?when you", 'my preference is', "i(?: would|'d)? only (?:want|use|need|allow)", 'i want (?:you to )?(?:always|never)', "i'?d like you to (?:always|never)", 'i like my',
  ],
  remember: ['(?:please )?remember(?: that)?', '(?:please )?keep in mind(?: that)?', '(?:please )?note that', 'for (?:future )?reference', 'fyi', 'just so you know'],
  critical: ['critical', 'important', 'remember', 'crucial', 'must remember'],
  work: [
    'code', 'tests?', 'specs?', 'commits?', 'branch(?:es)?', 'prs?', 'pull requests?', 'merges?', 'files?', 'folders?', 'director(?:y|ies)', 'paths?', 'functions?',
    'methods?', 'class(?:es)?', 'modules?', 'packages?', 'dependenc(?:y|ies)', 'librar(?:y|ies)', 'imports?', 'exports?', 'variables?', 'types?', 'interfaces?',
    'apis?', 'endpoints?', 'routes?', 'requests?', 'responses?', 'answers?', 'repl(?:y|ies)', 'messages?', 'comments?', 'docstrings?', 'docs?', 'documentation',
    'readme', 'changelog', 'logs?', 'logging', 'errors?', 'exceptions?', 'warnings?', 'lint(?:er|ing)?', 'formatter', 'format(?:ting)?', 'indentation', 'tabs',
    'spaces', 'semicolons?', 'quotes', 'naming', 'names?', 'builds?', 'ci', 'pipelines?', 'deploy(?:s|ments?)?', 'releases?', 'versions?', 'tags?', 'migrations?',
    'schemas?', 'databases?', 'db', 'quer(?:y|ies)', 'tables?', 'indexes', 'servers?', 'services?', 'containers?', 'images?', 'docker', 'configs?', 'configuration',
    'settings?', 'env', 'environments?', 'secrets?', 'keys?', 'tokens?', 'passwords?', 'credentials?', 'cache', 'queues?', 'scripts?', 'commands?', 'shell',
    'terminal', 'cli', 'flags?', 'options?', 'arguments?', 'repos?', 'repository', 'project', 'codebase', 'workspace', 'monorepo', 'components?', 'ui', 'screens?',
    'pages?', 'buttons?', 'styles?', 'css', 'themes?', 'colou?rs?', 'fonts?', 'layout', 'text', 'lines?', 'output', 'input', 'emojis?', 'markdown', 'json',
    'yaml', 'summar(?:y|ies)', 'diffs?', 'patch(?:es)?', 'reviews?', 'issues?', 'tickets?', 'bugs?', 'fix(?:es)?', 'features?', 'mocks?', 'fixtures?',
    'snapshots?', 'coverage', 'benchmarks?', 'e2e', 'staging', 'production', 'prod', 'main', 'master', 'origin', 'git', 'npm', 'pnpm', 'yarn', 'node', 'python',
    'cargo', 'rust', 'typescript', 'javascript', 'sql', 'tools?', 'agents?', 'models?', 'prompts?', 'call me', 'english', 'german', 'french', 'spanish',
    'italian', 'portuguese', 'dutch', 'japanese', 'chinese', 'korean', 'users?', 'clients?', 'sessions?', 'hooks?', 'plugins?', 'binar(?:y|ies)', 'dist',
    'sources?', 'assets?', 'html', 'http', 'urls?', 'ports?', 'hosts?', 'sdk', 'frameworks?', 'rules?', 'checks?', 'jobs?', 'tasks?', 'plans?',
    'root cause', 'handlers?', 'callbacks?', 'listeners?', 'events?', 'race', 'deadlock', 'leaks?', 'timeouts?', 'threads?', 'process(?:es)?', 'memory',
    'cpu', 'disk', 'network', 'sockets?', 'connections?', 'runners?', 'testrunner', 'workers?', 'cron', 'webhooks?', 'proxy', 'dns', 'tls', 'certs?',
    'certificates?', 'auth', 'login', 'cookies?', 'headers?', 'payloads?', 'parser', 'compiler', 'bundler', 'loader', 'renderer', 'router', 'scheduler',
    'state', 'regex', 'encoding', 'locale', 'timezone', 'lockfile', 'registry', 'cluster', 'nodes?', 'pods?', 'bucket', 'storage', 'backend', 'frontend',
  ],
  ack: [
    "(?:got it|understood|noted|will do|sure|ok(?:ay)?|of course|absolutely)[\\s,.!—–-]*(?:i'?ll|i will)\\s+(?:\\w+\\s+){0,8}?(?:from now on|going forward|in (?:the )?future|from here on)",
    "(?:from now on|going forward|in (?:the )?future|from here on)[, ]+i'?(?:ll| will)", "i'?ll (?:remember|keep (?:that|this|it) in mind|make a note)", 'noted', "i(?:'ll| will) always", "i(?:'ll| will) never", "i won'?t (?:\\w+ ){0,4}again",
  ],
  status: [
    '(?:all )?(?:\\d+ )?(?:unit |integration |e2e )?tests? (?:now )?(?:pass|passed|passes|passing|are green|green|succeed(?:ed)?)', '\\d+ passed', '\\d+ (?:tests? )?(?:failed|failing)',
    '(?:all |everything )?committed', 'committed as', 'pushed', 'merged', 'working tree (?:is )?clean', '(?:all|everything|tree) (?:is )?clean', 'all clean', 'done',
    '(?:is |are |now )?(?:complete|completed|finished)', 'all set', 'ready', 'works(?: now)?', 'working(?: now)?', 'builds? (?:cleanly|successfully|fine|passes|is green)',
    'the build (?:passes|is green|succeeds)', 'lint(?:s| is| passes)? clean', 'no (?:lint |type )?(?:errors|warnings)', 'green', 'verified', 'as expected', 'looks good', 'all good',
    'up to date', 'in place', 'succeeded', 'success(?:ful(?:ly)?)?', 'reverted', 'undone', '100% (?:line )?coverage', 'coverage (?:is|at|of) \\d', 'implemented',
  ],
  change: [
    'switched (?:\\S+ ){0,6}?(?:from \\S+ )?to', 'replaced (?:\\S+ ){0,6}?(?:with|by)', 'migrated (?:\\S+ ){0,6}?(?:from \\S+ )?to', 'moved (?:\\S+ ){0,6}?(?:to|into|behind|under|inside|out of|onto)',
    'renamed (?:\\S+ ){1,6}?to', 'pinned (?:\\S+ ){0,4}?(?:to|at)', '(?:upgraded|downgraded|bumped) (?:\\S+ ){1,5}?(?:to|from)', 'ported (?:\\S+ ){0,6}?to',
    'converted (?:\\S+ ){1,6}?(?:to|into)', '(?:now )?uses (?:\\S+ ){1,4}?instead of', 'used (?:\\S+ ){1,6}?(?:instead of|to represent|to model|to encode|to track|to hold)',
    'decided to', 'chose', 'opted (?:to|for)', 'went with', 'settled on',
    "(?:i'?ll|we'?ll|i will|we will) (?:use|go with|keep|switch to) (?:\\S+ ){1,6}?(?:instead of|rather than|because|since)",
  ],
  built: ["^(?:i'?ve |i have |we'?ve |we have )?(?:added|implemented|introduced|extracted|defined|exposed)"],
  cause: [
    'was caused by', 'is caused by', 'were caused by', '(?:the )?root cause (?:of (?:\\S+ ){1,8}?)?(?:is|was)', '(?:the )?cause (?:of (?:\\S+ ){1,8}?)?was', 'came from', 'turned out (?:to be|that)',
    'the (?:bug|issue|problem|failure|error|crash|regression|leak) (?:was|came|happened) (?:that|because|due to|from|in|when)', 'was due to', 'is due to',
    '(?:fails|failed|broke|breaks|crashed|crashes) (?:because|on|with)', 'the fix was', 'fixed by', 'resolved by',
  ],
  where: [
    '(?:is|are) (?:served|hosted|deployed|running|exposed|available|reachable|mounted|located|stored|kept|defined|configured|set|declared|published) (?:at|on|in|under|to|from|via|by)',
    '(?:runs?|listens?|lives?|sits?|resides?) (?:at|on|in|under)', 'defaults? to', '(?:is|are) (?:limited|capped|rate-limited|throttled) (?:to|at)', 'points? to', 'reads? (?:\\S+ )?from', 'writes? to',
  ],
  copula: ['runs', 'uses', 'requires', 'needs', 'is', 'are', 'allows?', 'accepts?', 'expects?', 'goes? (?:to|in)'],
  recurring: [
    'every (?:day|night|week|month|morning|evening|hour|monday|tuesday|wednesday|thursday|friday|saturday|sunday|sprint|release|\\d+ (?:minutes|hours|days))',
    'nightly', 'daily', 'weekly', 'hourly', 'monthly', 'on (?:mondays|tuesdays|wednesdays|thursdays|fridays|saturdays|sundays|weekends)',
    'in (?:declaration|alphabetical|insertion|definition|registration|reverse|the same|this|that|\\w+ )?order', 'first match wins', 'takes? precedence', 'override(?:s)? (?:the )?\\w+ (?:settings?|config|values?|defaults?)',
  ],
  narration: [
    'let me', "let'?s", 'now,? (?:i|let)', "i'?ll (?:now|next|first|start|begin|go|run|check|look|read|try|create|add|update|fix|implement|write|switch|verify)",
    'i will (?:now|next|first|start|run|check|look|read|try|create|add|update|fix|implement|write|switch|verify)', "i'?m going to", 'i need to', 'next,? i',
    'first,? i', 'want me to', 'shall i', 'should i', 'would you like', 'do you want', "if you'?d like", 'let me know', 'here(?:\'s| is) (?:a |the )?(?:summary|what)',
    'i can also', 'happy to', 'feel free',
  ],
  hedge: ['maybe', 'might', 'perhaps', 'probably', 'possibly', 'likely', 'i think', 'i guess', 'i suspect', 'could be', 'seems? to', 'appears? to', 'not sure', 'i believe', 'iiuc', 'afaik', 'afaict', 'imo', 'imho', 'tbh'],
  narrative: ["i'?ve always", 'i have always', "i'?ve never", 'i have never', 'always been', 'never been', 'always wanted', 'never wanted', 'always loved', 'never thought', 'never knew', 'was always', 'were always', 'has always', 'had always', 'never gets', 'always gets', 'always makes', 'always brings'],
};

const DE: LangWords = {
  scope: ['ab jetzt', 'ab sofort', 'von nun an', 'künftig', 'zukünftig', 'in zukunft', 'jedes mal', 'jedesmal', 'immer wenn', 'grundsätzlich', 'standardmäßig', 'in diesem (?:repo|projekt|repository)', 'bei jedem', 'bei jeder', 'überall'],
  always: ['immer', 'stets', 'nie', 'niemals', 'nie wieder'],
  dont: ['kein(?:e|en|er|es)?', 'nicht mehr', 'bitte nicht', 'nie', 'niemals', 'vermeide', 'vermeiden', 'hör auf'],
  verbs: [
    'verwende', 'verwenden', 'nutze', 'nutzen', 'benutze', 'benutzen', 'nimm', 'schreib', 'schreibe', 'mach', 'mache', 'füg', 'füge', 'lösch', 'lösche', 'führ', 'führe',
    'lauf', 'push', 'pushe', 'committe', 'antworte', 'halte', 'lass', 'aktualisiere', 'teste', 'prüfe', 'ändere', 'nenne', 'setze', 'achte', 'sorge', 'frag', 'frage',
    'leg', 'lege', 'erstelle', 'gib', 'zeig', 'zeige', 'sortiere', 'ersetze', 'pflege', 'dokumentiere', 'kommentiere', 'formatiere', 'baue', 'starte', 'installiere',
  ],
  modal: ['muss', 'müssen', 'musst', 'soll', 'sollen', 'sollst', 'sollte', 'darf nicht', 'dürfen nicht', 'darfst nicht'],
  when: ['wenn', 'immer wenn', 'sobald', 'bevor', 'nachdem', 'falls', 'jedes mal wenn', 'bei jedem', 'bei jeder'],
  contrast: ['statt', 'anstatt', 'anstelle', 'nicht', 'kein(?:e|en)?', 'zuerst', 'dann', 'vor', 'nach', 'nur'],
  oneOff: ['nochmal', 'noch einmal', 'erneut', 'wieder', 'erstmal', 'erst mal', 'vorerst', 'vorläufig', 'für jetzt', 'fürs erste', 'gerade', 'eben', 'heute', 'diesmal', 'dieses mal', 'letzte(?:n|r|s)?', 'rückgängig', 'bis', 'das (?:hier|da)', 'mach das', 'diese(?:n|s)? (?:änderung|datei|zeile|funktion|test)'],
  idioms: ['egal', 'vergiss es', 'schon gut', 'immer wieder gern', 'immer gerne', 'kein problem', 'keine sorge', 'mach dir keine sorgen'],
  prefer: ['ich bevorzuge', 'ich hätte lieber', 'mir ist lieber', 'ich mag es,? wenn du', 'ich möchte,? dass du (?:immer|nie)', 'am liebsten'],
  remember: ['merk dir(?:,? dass)?', 'denk daran(?:,? dass)?', 'beachte(?:,? dass)?', 'zur info', 'nur damit du es weißt'],
  critical: ['wichtig', 'kritisch', 'merk dir', 'merke'],
  work: ['code', 'tests?', 'commits?', 'branch', 'dateien', 'datei', 'funktion(?:en)?', 'antwort(?:en)?', 'kommentare?', 'doku(?:mentation)?', 'migration(?:en)?', 'datenbank', 'server', 'konfig(?:uration)?', 'repo', 'projekt', 'fehler', 'warnungen', 'paket(?:e)?', 'abhängigkeit(?:en)?', 'deploy', 'release', 'version', 'schema', 'api', 'main', 'pnpm', 'npm', 'deutsch', 'englisch', 'französisch', 'spanisch', 'italienisch', 'niederländisch', 'portugiesisch', 'japanisch', 'chinesisch', 'koreanisch'],
  ack: ['notiert', 'merke ich mir', 'alles klar,? ab jetzt', 'ab jetzt (?:werde|verwende|nutze)', 'künftig (?:werde|verwende|nutze)', 'in zukunft (?:werde|verwende|nutze)'],
  status: ['alle (?:\\d+ )?tests (?:bestehen|laufen durch|sind grün|grün)', 'tests (?:bestehen|sind grün)', 'erledigt', 'fertig', 'committet', 'gepusht', 'gemergt', 'sauber', 'alles klar', 'funktioniert(?: jetzt)?', 'abgeschlossen', 'rückgängig gemacht', 'umgesetzt', 'implementiert'],
  change: ['umgestellt', 'ersetzt', 'migriert', 'verschoben', 'umbenannt', 'gepinnt', 'aktualisiert auf', 'gewechselt', 'entschieden', 'portiert'],
  built: ['hinzugefügt', 'erstellt', 'implementiert', 'angelegt'],
  cause: ['(?:die )?ursache (?:(?:für|des|der|von) (?:\\S+ ){1,6}?)?(?:war|ist)', 'lag an', 'liegt an', 'verursacht (?:durch|von)', 'wurde (?:\\S+ ){0,3}verursacht', 'kam von', 'kommt von', 'der fehler war', 'das problem war'],
  where: ['läuft (?:auf|unter|in)', 'liegt (?:in|unter)', 'ist (?:unter|auf|in) ', 'wird (?:unter|auf) (?:\\S+ ){0,3}(?:bereitgestellt|ausgeliefert)', 'lauscht auf', 'begrenzt auf'],
  copula: ['nutzt', 'verwendet', 'benötigt', 'ist', 'sind', 'erlaubt'],
  recurring: ['jeden (?:tag|montag|dienstag|mittwoch|donnerstag|freitag|abend|morgen)', 'jede (?:nacht|woche)', 'nächtlich', 'täglich', 'wöchentlich', 'montags', 'freitags', 'in (?:der )?reihenfolge', 'hat vorrang'],
  narration: ['lass mich', 'ich werde jetzt', 'als nächstes', 'soll ich', 'möchtest du', 'sag bescheid'],
  hedge: ['vielleicht', 'wahrscheinlich', 'möglicherweise', 'ich glaube', 'ich denke', 'eventuell', 'vermutlich', 'scheint'],
  narrative: ['ich habe immer', 'ich hatte nie', 'war immer', 'war nie', 'schon immer'],
};

const FR: LangWords = {
  scope: ['désormais', 'dorénavant', 'à partir de maintenant', "à l'avenir", 'chaque fois que', 'à chaque fois', 'toutes les fois', 'par défaut', 'dans ce (?:dépôt|projet|repo)', 'partout'],
  always: ['toujours', 'jamais', 'ne jamais', 'plus jamais'],
  dont: ['ne (?:\\p{L}+ )?(?:pas|jamais|plus)', "n'\\p{L}+ (?:pas|jamais|plus)", 'pas de', 'évite', 'évitez', 'arrête de'],
  verbs: [
    'utilise', 'utilisez', 'utiliser', 'écris', 'écrivez', 'écrire', 'fais', 'faites', 'faire', 'mets', 'mettez', 'mettre', 'ajoute', 'ajoutez', 'supprime', 'supprimez',
    'lance', 'lancez', 'exécute', 'exécutez', 'réponds', 'répondez', 'répondre', 'garde', 'gardez', 'évite', 'évitez', 'vérifie', 'vérifiez', 'teste', 'testez', 'pousse',
    'poussez', 'pousser', 'commite', 'demande', 'demandez', 'nomme', 'nommez', 'pense', 'pensez', 'crée', 'créez', 'remplace', 'remplacez', 'trie', 'documente', 'formate',
  ],
  modal: ['il faut', 'tu dois', 'vous devez', 'doit', 'doivent', 'ne doit (?:pas|jamais)', 'ne doivent (?:pas|jamais)'],
  when: ['quand', 'lorsque', 'chaque fois que', 'si', 'avant de', 'après', 'dès que'],
  contrast: ['au lieu de', 'plutôt que', 'pas', 'sauf', "d'abord", 'puis', 'ensuite', 'avant', 'seulement', 'uniquement'],
  oneOff: ['encore', 'de nouveau', 'à nouveau', 'relance', 'refais', "pour l'instant", 'pour le moment', 'tout à l\'heure', "aujourd'hui", 'cette fois', 'dernière?', 'annule', "jusqu'à", 'ça', 'cela', 'ceci', 'ce (?:fichier|changement|test|commit)', 'cette (?:modification|ligne|fonction)'],
  idioms: ['laisse tomber', 'laissez tomber', 'peu importe', 'toujours un plaisir', 'pas de souci', 'pas de problème', "ne t'inquiète pas", 'ne vous inquiétez pas', 'tant pis'],
  prefer: ['je préfère', "j'aime mieux", "j'aimerais mieux", "je voudrais que tu (?:toujours|ne jamais)", 'ma préférence'],
  remember: ['souviens-toi(?: que)?', 'rappelle-toi(?: que)?', 'retiens(?: que)?', "n'oublie pas que", 'note que', 'garde en tête que', 'pour info'],
  critical: ['critique', 'important', 'retiens', 'à retenir', 'souviens-toi'],
  work: ['code', 'tests?', 'commits?', 'branche', 'fichiers?', 'fonctions?', 'réponses?', 'commentaires?', 'doc(?:umentation)?', 'migrations?', 'base de données', 'serveur', 'config(?:uration)?', 'dépôt', 'projet', 'erreurs?', 'avertissements?', 'paquets?', 'dépendances?', 'schéma', 'api', 'main', 'pnpm', 'npm', 'français', 'anglais', 'allemand', 'espagnol', 'italien', 'néerlandais', 'portugais', 'japonais', 'chinois', 'coréen'],
  ack: ["c'est noté", 'noté', 'désormais je', "à l'avenir,? je", 'je retiens', 'je vais (?:toujours|désormais)'],
  status: ['(?:les |tous les )?(?:\\d+ )?tests (?:passent|sont verts)', 'terminé', 'fini', 'commité', 'poussé', 'fusionné', 'tout est propre', 'propre', 'fonctionne(?: maintenant)?', 'implémenté', 'annulé'],
  change: ['remplacé (?:\\S+ ){1,6}?par', 'migré', 'passé (?:de \\S+ )?à', 'déplacé', 'renommé', 'épinglé', 'mis à jour vers', 'basculé', 'choisi', 'porté'],
  built: ['ajouté', 'créé', 'implémenté'],
  cause: ['venait de', 'vient de', 'était dû à', 'est dû à', 'était causé par', 'est causé par', 'la cause (?:(?:du|de la|des|de l\'|de) ?(?:\\S+ ){1,6}?)?(?:était|est)', 'le problème (?:était|venait)', 'le bug (?:était|venait)'],
  where: ['est servie? (?:sur|à|en)', 'tourne sur', 'écoute sur', 'se trouve (?:dans|sur|à)', 'est (?:dans|sur|à) ', 'limitée? à'],
  copula: ['utilise', 'nécessite', 'est', 'sont'],
  recurring: ['chaque (?:jour|nuit|semaine|lundi|vendredi)', 'tous les (?:jours|soirs|lundis|vendredis)', 'quotidiennement', 'dans l\'ordre', 'a la priorité'],
  narration: ['je vais', 'laisse-moi', 'voulez-vous', 'veux-tu', 'dis-moi'],
  hedge: ['peut-être', 'probablement', 'sans doute', 'je pense', 'je crois', 'il semble'],
  narrative: ["j'ai toujours", "je n'ai jamais", 'a toujours été', 'était toujours'],
};

const ES: LangWords = {
  scope: ['a partir de ahora', 'de ahora en adelante', 'en adelante', 'en el futuro', 'cada vez que', 'siempre que', 'por defecto', 'en este (?:repo|proyecto|repositorio)', 'en todas partes'],
  always: ['siempre', 'nunca', 'jamás', 'nunca más'],
  dont: ['no (?:\\p{L}+ )?(?:uses|hagas|pongas|añadas|agregues|borres|ejecutes|subas|toques|cambies|escribas)', 'nada de', 'evita', 'evite', 'deja de'],
  verbs: ['usa', 'use', 'usen', 'utiliza', 'utilice', 'escribe', 'escriba', 'haz', 'haga', 'pon', 'ponga', 'añade', 'agrega', 'elimina', 'borra', 'ejecuta', 'corre', 'responde', 'responda', 'mantén', 'mantenga', 'evita', 'comprueba', 'verifica', 'actualiza', 'actualice', 'sube', 'pregunta', 'nombra', 'crea', 'reemplaza', 'ordena', 'documenta'],
  modal: ['hay que', 'debes', 'debe', 'deben', 'tienes que', 'tiene que', 'no debe', 'no deben'],
  when: ['cuando', 'siempre que', 'cada vez que', 'si', 'antes de', 'después de', 'en cuanto'],
  contrast: ['en lugar de', 'en vez de', 'no', 'excepto', 'primero', 'luego', 'después', 'antes', 'solo', 'sólo'],
  oneOff: ['otra vez', 'de nuevo', 'vuelve a', 'por ahora', 'por el momento', 'hoy', 'esta vez', 'último', 'última', 'deshaz', 'hasta', 'eso', 'esto', 'ese (?:archivo|cambio|test)', 'este (?:archivo|cambio|test)'],
  idioms: ['no importa', 'olvídalo', 'da igual', 'siempre es un placer', 'un placer como siempre', 'no te preocupes', 'no hay problema', 'no pasa nada'],
  prefer: ['prefiero', 'me gusta más', 'preferiría', 'me gustaría que siempre', 'mi preferencia'],
  remember: ['recuerda(?: que)?', 'ten en cuenta(?: que)?', 'toma nota(?: de que)?', 'no olvides que', 'para tu información'],
  critical: ['crítico', 'importante', 'recuerda'],
  work: ['código', 'tests?', 'pruebas?', 'commits?', 'rama', 'archivos?', 'funciones?', 'respuestas?', 'comentarios?', 'documentación', 'migraciones?', 'base de datos', 'servidor', 'configuración', 'repo(?:sitorio)?', 'proyecto', 'errores?', 'avisos?', 'paquetes?', 'dependencias?', 'esquema', 'api', 'main', 'pnpm', 'npm', 'español', 'castellano', 'inglés', 'alemán', 'francés', 'italiano', 'portugués', 'japonés', 'chino', 'coreano'],
  ack: ['anotado', 'a partir de ahora,? (?:usaré|lo haré)', 'a partir de ahora (?:usaré|voy a)', 'lo tendré en cuenta', 'lo recordaré'],
  status: ['(?:los |todos los )?(?:\\d+ )?(?:tests|pruebas) (?:pasan|están en verde)', 'hecho', 'terminado', 'listo', 'commiteado', 'subido', 'fusionado', 'todo limpio', 'limpio', 'funciona(?: ahora)?', 'implementado', 'deshecho'],
  change: ['cambié (?:\\S+ ){1,6}?(?:de \\S+ )?a', 'cambiado (?:\\S+ ){0,6}?a', 'reemplacé (?:\\S+ ){1,6}?por', 'sustituí', 'migré', 'moví', 'renombré', 'fijé', 'actualicé (?:\\S+ ){1,5}?a', 'decidí', 'elegí'],
  built: ['añadí', 'agregué', 'creé', 'implementé'],
  cause: ['se debía a', 'se debe a', 'era causado por', 'es causado por', 'la causa (?:era|es|fue)', 'el (?:error|problema|bug) (?:era|venía|fue)', 'venía de', 'viene de'],
  where: ['se sirve en', 'corre en', 'está en', 'escucha en', 'se encuentra en', 'vive en', 'limitad[ao] a'],
  copula: ['usa', 'utiliza', 'requiere', 'es', 'son'],
  recurring: ['cada (?:día|noche|semana|lunes|viernes)', 'todos los (?:días|lunes|viernes)', 'diariamente', 'en orden', 'tiene prioridad'],
  narration: ['voy a', 'déjame', 'quieres que', '¿quieres', 'avísame'],
  hedge: ['quizás', 'quizá', 'tal vez', 'probablemente', 'creo que', 'parece'],
  narrative: ['siempre he', 'nunca he', 'siempre fue', 'nunca fue'],
};

const IT: LangWords = {
  scope: ["d'ora in poi", "da ora in poi", 'da adesso in poi', 'in futuro', 'ogni volta che', 'sempre quando', 'per default', 'di default', 'in questo (?:repo|progetto|repository)', 'ovunque'],
  always: ['sempre', 'mai', 'non \\p{L}+ mai'],
  dont: ['non (?:\\p{L}+ )?(?:usare|fare|mettere|aggiungere|cancellare|eseguire|toccare|cambiare|scrivere)', 'niente', 'evita', 'smetti di'],
  verbs: ['usa', 'usate', 'utilizza', 'scrivi', 'scrivete', 'fai', 'fate', 'metti', 'aggiungi', 'elimina', 'cancella', 'esegui', 'lancia', 'rispondi', 'mantieni', 'evita', 'controlla', 'verifica', 'aggiorna', 'chiedi', 'nomina', 'crea', 'sostituisci', 'ordina', 'documenta'],
  modal: ['bisogna', 'devi', 'deve', 'devono', 'non deve', 'non devono'],
  when: ['quando', 'ogni volta che', 'se', 'prima di', 'dopo'],
  contrast: ['invece di', 'anziché', 'piuttosto che', 'non', 'tranne', 'prima', 'poi', 'solo'],
  oneOff: ['di nuovo', 'ancora una volta', 'rifai', 'rilancia', 'per ora', 'per il momento', 'oggi', 'questa volta', 'ultim[ao]', 'annulla', 'fino a', 'questo', 'quello', 'quella'],
  idioms: ['lascia perdere', 'non importa', 'sempre un piacere', 'è sempre un piacere', 'non preoccuparti', 'nessun problema', 'figurati'],
  prefer: ['preferisco', 'mi piace di più', 'preferirei', 'la mia preferenza'],
  remember: ['ricorda(?: che)?', 'tieni presente(?: che)?', 'nota che', 'per tua informazione'],
  critical: ['critico', 'importante', 'ricorda'],
  work: ['codice', 'test', 'commit', 'branch', 'file', 'funzioni?', 'rispost[ae]', 'commenti', 'documentazione', 'migrazion[ei]', 'database', 'server', 'configurazione', 'repo', 'progetto', 'errori', 'avvisi', 'pacchetti', 'dipendenze', 'schema', 'api', 'main', 'pnpm', 'npm', 'italiano', 'inglese', 'tedesco', 'francese', 'spagnolo', 'portoghese', 'giapponese', 'cinese', 'coreano'],
  ack: ['preso nota', "d'ora in poi (?:userò|farò)", 'lo terrò a mente', 'me lo ricorderò'],
  status: ['(?:tutti i )?(?:\\d+ )?test (?:passano|sono verdi)', 'fatto', 'finito', 'completato', 'committato', 'pushato', 'tutto pulito', 'pulito', 'funziona(?: ora)?', 'implementato', 'annullato'],
  change: ['sostituito (?:\\S+ ){1,6}?con', 'migrato', 'passato (?:da \\S+ )?a', 'spostato', 'rinominato', 'fissato', 'aggiornato a', 'cambiato (?:\\S+ ){0,6}?(?:da \\S+ )?a', 'deciso', 'scelto'],
  built: ['aggiunto', 'creato', 'implementato'],
  cause: ['era causato da', 'è causato da', 'era dovuto a', 'è dovuto a', 'la causa (?:era|è)', 'il (?:bug|problema|errore) (?:era|veniva)', 'veniva da', 'viene da'],
  where: ['è servita? su', 'gira su', 'è in esecuzione su', 'ascolta su', 'si trova in', 'è (?:in|su) ', 'limitat[ao] a'],
  copula: ['usa', 'richiede', 'è', 'sono'],
  recurring: ['ogni (?:giorno|notte|settimana|lunedì|venerdì)', 'tutti i (?:giorni|lunedì)', 'quotidianamente', 'in ordine', 'ha la precedenza'],
  narration: ['adesso (?:faccio|controllo)', 'lasciami', 'vuoi che', 'fammi sapere'],
  hedge: ['forse', 'probabilmente', 'penso che', 'credo che', 'sembra'],
  narrative: ['ho sempre', 'non ho mai', 'è sempre stato', 'era sempre'],
};

const PT: LangWords = {
  scope: ['a partir de agora', 'daqui (?:pra|para) frente', 'de agora em diante', 'no futuro', 'sempre que', 'toda vez que', 'cada vez que', 'por padrão', 'neste (?:repo|projeto|repositório)', 'em todo lugar'],
  always: ['sempre', 'nunca', 'jamais'],
  dont: ['não (?:\\p{L}+ )?(?:use|usa|faça|faz|coloque|adicione|apague|execute|rode|mexa|mude|escreva|suba)', 'nada de', 'evite', 'pare de'],
  verbs: ['use', 'usa', 'usem', 'utilize', 'escreva', 'escreve', 'faça', 'faz', 'coloque', 'adicione', 'remova', 'apague', 'execute', 'rode', 'responda', 'mantenha', 'evite', 'verifique', 'atualize', 'pergunte', 'nomeie', 'crie', 'substitua', 'ordene', 'documente'],
  modal: ['deve', 'devem', 'precisa', 'precisam', 'tem que', 'não deve', 'não devem'],
  when: ['quando', 'sempre que', 'toda vez que', 'se', 'antes de', 'depois de'],
  contrast: ['em vez de', 'ao invés de', 'não', 'exceto', 'primeiro', 'depois', 'antes', 'só', 'apenas'],
  oneOff: ['de novo', 'novamente', 'outra vez', 'por enquanto', 'por agora', 'hoje', 'desta vez', 'últim[ao]', 'desfaz', 'desfaça', 'até', 'isso', 'isto', 'esse (?:arquivo|teste)', 'este (?:arquivo|teste)'],
  idioms: ['deixa pra lá', 'deixa para lá', 'não importa', 'sempre um prazer', 'é sempre um prazer', 'não se preocupe', 'não esquenta', 'sem problema'],
  prefer: ['prefiro', 'eu prefiro', 'gosto mais', 'preferiria', 'minha preferência'],
  remember: ['lembre(?:-se)?(?: de que| que)?', 'lembra(?: que)?', 'tenha em mente(?: que)?', 'note que', 'para sua informação'],
  critical: ['crítico', 'importante', 'lembre-se', 'lembre'],
  work: ['código', 'testes?', 'commits?', 'branch', 'arquivos?', 'funç(?:ão|ões)', 'respostas?', 'comentários?', 'documentação', 'migraç(?:ão|ões)', 'banco de dados', 'servidor', 'configuração', 'repo(?:sitório)?', 'projeto', 'erros?', 'avisos?', 'pacotes?', 'dependências?', 'esquema', 'api', 'main', 'pnpm', 'npm', 'português', 'inglês', 'alemão', 'francês', 'espanhol', 'italiano', 'japonês', 'chinês', 'coreano'],
  ack: ['anotado', 'anotei', 'a partir de agora (?:vou|usarei)', 'vou lembrar', 'vou ter isso em mente'],
  status: ['(?:todos os )?(?:\\d+ )?testes (?:passam|passaram|estão verdes)', 'feito', 'pronto', 'concluído', 'commitado', 'enviado', 'tudo limpo', 'limpo', 'funciona(?: agora)?', 'implementado', 'desfeito'],
  change: ['troquei (?:\\S+ ){1,6}?(?:de \\S+ )?(?:para|por)', 'substituí (?:\\S+ ){1,6}?por', 'migrei', 'movi', 'renomeei', 'fixei', 'atualizei (?:\\S+ ){1,5}?para', 'mudei (?:\\S+ ){1,6}?para', 'decidi', 'escolhi'],
  built: ['adicionei', 'criei', 'implementei'],
  cause: ['era causado por', 'é causado por', 'foi causado por', 'se devia a', 'devido a', 'a causa (?:era|é|foi)', 'o (?:bug|problema|erro) (?:era|vinha|foi)', 'vinha de', 'vem de'],
  where: ['é servid[ao] em', 'roda em', 'está em', 'escuta em', 'fica em', 'limitad[ao] a'],
  copula: ['usa', 'requer', 'é', 'são'],
  recurring: ['todo (?:dia|domingo|sábado)', 'toda (?:noite|semana|segunda|sexta)', 'todas as (?:noites|segundas|sextas)', 'diariamente', 'em ordem', 'tem prioridade'],
  narration: ['vou ', 'deixa eu', 'quer que eu', 'me avise'],
  hedge: ['talvez', 'provavelmente', 'acho que', 'creio que', 'parece'],
  narrative: ['sempre quis', 'nunca fui', 'sempre fui', 'sempre foi'],
};

const NL: LangWords = {
  scope: ['voortaan', 'vanaf nu', 'in de toekomst', 'elke keer (?:als|dat)', 'telkens (?:als|wanneer)', 'altijd als', 'standaard', 'in deze repo', 'in dit project', 'overal'],
  always: ['altijd', 'nooit', 'nooit meer'],
  dont: ['geen', 'niet meer', 'nooit', 'vermijd', 'stop met'],
  verbs: ['gebruik', 'schrijf', 'maak', 'zet', 'voeg', 'verwijder', 'draai', 'voer', 'antwoord', 'houd', 'hou', 'vermijd', 'controleer', 'werk', 'test', 'push', 'commit', 'vraag', 'noem', 'sorteer', 'vervang', 'documenteer'],
  modal: ['moet', 'moeten', 'mag niet', 'mogen niet', 'hoort', 'dient'],
  when: ['als', 'wanneer', 'telkens als', 'elke keer als', 'voordat', 'nadat', 'zodra'],
  contrast: ['in plaats van', 'niet', 'geen', 'behalve', 'eerst', 'dan', 'daarna', 'alleen'],
  oneOff: ['nog een keer', 'nog eens', 'opnieuw', 'weer', 'voorlopig', 'voor nu', 'vandaag', 'deze keer', 'laatste', 'terug(?:draaien)?', 'tot', 'dat', 'dit'],
  idioms: ['laat maar', 'maakt niet uit', 'altijd een plezier', 'geen zorgen', 'maak je geen zorgen', 'geen probleem'],
  prefer: ['ik heb liever', 'ik geef de voorkeur aan', 'mijn voorkeur', 'ik vind het fijn als je'],
  remember: ['onthoud(?: dat)?', 'houd er rekening mee(?: dat)?', 'let op(?: dat)?', 'ter info'],
  critical: ['kritiek', 'belangrijk', 'onthoud'],
  work: ['code', 'tests?', 'commits?', 'branch', 'bestand(?:en)?', 'functies?', 'antwoorden?', 'commentaar', 'documentatie', 'migraties?', 'database', 'server', 'configuratie', 'repo', 'project', 'fouten?', 'waarschuwingen', 'pakketten', 'afhankelijkheden', 'schema', 'api', 'main', 'pnpm', 'npm', 'nederlands', 'engels', 'duits', 'frans', 'spaans', 'italiaans', 'portugees', 'japans', 'chinees', 'koreaans'],
  ack: ['genoteerd', 'voortaan (?:gebruik|zal)', 'vanaf nu (?:gebruik|zal)', 'ik zal het onthouden'],
  status: ['alle (?:\\d+ )?tests (?:slagen|zijn groen)', 'tests slagen', 'klaar', 'gedaan', 'gecommit', 'gepusht', 'alles schoon', 'schoon', 'werkt(?: nu)?', 'geïmplementeerd', 'teruggedraaid'],
  change: ['omgezet', 'vervangen', 'gemigreerd', 'verplaatst', 'hernoemd', 'vastgezet', 'bijgewerkt naar', 'overgestapt', 'gekozen', 'besloten'],
  built: ['toegevoegd', 'aangemaakt', 'geïmplementeerd'],
  cause: ['werd veroorzaakt door', 'wordt veroorzaakt door', 'de oorzaak (?:was|is)', 'kwam door', 'komt door', 'lag aan', 'het probleem was'],
  where: ['draait op', 'luistert op', 'staat in', 'staat op', 'is te vinden', 'beperkt tot'],
  copula: ['gebruikt', 'vereist', 'is', 'zijn'],
  recurring: ['elke (?:dag|nacht|week|maandag|vrijdag)', 'iedere (?:dag|week)', 'dagelijks', 'wekelijks', 'op maandag', 'in volgorde', 'heeft voorrang'],
  narration: ['ik ga nu', 'laat me', 'wil je dat ik', 'laat het weten'],
  hedge: ['misschien', 'waarschijnlijk', 'ik denk', 'volgens mij', 'lijkt'],
  narrative: ['ik heb altijd', 'ik heb nooit', 'was altijd'],
};

const JA: LangWords = {
  scope: ['今後', 'これから(?:は)?', '以後', '以降', '今度から', '毎回', 'いつでも', '常に', 'デフォルトで', 'このリポジトリ(?:では|で)', 'このプロジェクト(?:では|で)', '(?:する|した)(?:とき|時)は', 'たびに', '場合は'],
  always: ['必ず', '絶対に?', '常に', 'いつも', '決して'],
  dont: ['ないでください', 'ないで(?:ね|ほしい)?', 'ないこと', 'ないように', 'てはいけない', 'ちゃダメ', '禁止', 'しないで'],
  verbs: ['てください', 'て下さい', 'てね', 'なさい', 'こと。', 'ように(?:して)?(?:ください)?', 'ましょう', 'すること', 'てほしい', 'お願いします', '(?<!につい)(?<!によっ)(?<!とし)て(?:ね|よ)?[。！!]?\\s*$'],
  modal: ['なければならない', 'なきゃいけない', 'べき', '必要がある', 'ないといけない'],
  when: ['とき(?:は|に)', '時(?:は|に)', '場合(?:は|に)', '前に', '後に', 'たら', 'なら', 'たびに'],
  contrast: ['ではなく', 'じゃなくて', 'の代わりに', 'より', 'まず', 'それから', 'だけ'],
  oneOff: ['さっき', '先ほど', 'もう一度', 'もう一回', '再度', 'また', '今回', '今だけ', 'とりあえず', '一旦', 'いったん', '元に戻', '今日', 'まで'],
  idioms: ['やっぱりいいや', 'なんでもない', '気にしないで', 'いつもありがとう', 'いつも楽し', 'どういたしまして', '大丈夫'],
  prefer: ['ほうが好き', '方が好き', 'ほうがいい', '方がいい', 'が好みです', 'を好みます', '好みは'],
  remember: ['覚えておいて(?:ください)?', '覚えといて', '念のため', 'ちなみに', '注意してほしいのは'],
  critical: ['重要', '大事', '覚えておいて', '必須', '注意'],
  work: ['コード', 'テスト', 'コミット', 'ブランチ', 'ファイル', '関数', '回答', '返答', '答え', 'コメント', 'ドキュメント', 'マイグレーション', 'データベース', 'スキーマ', 'サーバー', '設定', 'リポジトリ', 'プロジェクト', 'エラー', '警告', 'パッケージ', '依存', 'デプロイ', 'リリース', 'バージョン', 'api', 'main', 'pnpm', 'npm', '日本語', '英語'],
  ack: ['今後は', 'これからは', '以後', '覚えておきます', '覚えました'],
  status: ['(?:すべて|全て)?(?:の)?テスト(?:が|は)?(?:すべて|全て)?(?:成功|パス|通過|通りました)', '件のテストがすべて成功', '完了', 'コミット済み', 'コミットしました', 'プッシュしました', 'マージしました', 'クリーン', '動作します', '動きました', '実装しました', '終わりました', '元に戻しました'],
  change: ['切り替えました', '置き換えました', '移行しました', '移動しました', '名前を変更しました', 'に変更しました', '固定しました', 'アップグレードしました', 'に決めました', 'を採用しました', '移植しました'],
  built: ['を追加しました', 'を作成しました', 'を実装しました'],
  cause: ['原因は', 'が原因でした', 'が原因です', 'によるものでした', 'のせいでした', 'に起因'],
  where: ['で提供されています', 'で動いています', 'で動作しています', 'で稼働しています', 'にあります', 'に置かれています', 'で実行されています', 'に制限されています', 'までに制限'],
  copula: ['を使っています', 'を使用しています', 'です', 'ポート'],
  recurring: ['毎日', '毎晩', '毎週', '毎朝', '月曜(?:日)?ごと', '毎月曜', '順番に', '順に', '優先され'],
  narration: ['します。$', 'してみます', '確認します', 'しましょうか', 'いたします'],
  hedge: ['かもしれません', 'たぶん', '多分', 'おそらく', 'と思います', 'ようです', 'でしょう'],
  narrative: ['ずっと', 'したことがない', 'でした'],
};

const ZH: LangWords = {
  scope: ['以后', '今后', '从现在(?:开始|起)', '往后', '每次', '每当', '凡是', '默认', '在这个(?:仓库|项目)(?:里|中)?', '一律', '始终'],
  always: ['总是', '永远', '始终', '一律', '务必', '绝不', '决不', '从不'],
  dont: ['不要', '别', '不许', '不准', '禁止', '不能', '不得', '勿'],
  verbs: ['请(?!求|问)', '务必', '记得', '都要', '一定要', '千万', '一律'],
  modal: ['必须', '应该', '需要', '得'],
  when: ['时', '的时候', '之前', '之后', '如果', '每次', '每当'],
  contrast: ['而不是', '不要用', '代替', '先', '再', '只'],
  oneOff: ['刚才', '刚刚', '这次', '这一次', '暂时', '先这样', '撤销', '回滚', '今天', '重新', '再跑', '再试', '再运行', '再来', '又'],
  idioms: ['算了', '没关系', '不用了', '没事', '总是很开心', '总是很高兴', '不客气'],
  prefer: ['我更喜欢', '我比较喜欢', '我喜欢', '我倾向于', '我希望你(?:总是|永远|一律)', '我偏好'],
  remember: ['记住', '请记住', '记得', '注意', '顺便说一下'],
  critical: ['重要', '关键', '记住', '注意', '必须'],
  work: ['代码', '测试', '提交', '分支', '文件', '函数', '回答', '回复', '注释', '文档', '迁移', '数据库', '服务器', '配置', '仓库', '项目', '错误', '警告', '依赖', '部署', '发布', '版本', 'api', 'main', 'pnpm', 'npm', '中文', '英文', '英语'],
  ack: ['以后我会', '今后我会', '以后都会', '记住了', '我会记住'],
  status: ['(?:全部|所有)?(?:的)?测试(?:全部|都)?(?:已)?通过', '个测试全部通过', '全部已提交', '已提交', '已推送', '已合并', '工作区干净', '干净', '完成了', '已完成', '完成', '已实现', '可以正常运行', '已撤销'],
  change: ['切换到', '替换为', '替换成', '换成', '迁移到', '移到', '重命名为', '固定(?:在|为)', '升级到', '改为', '改成', '决定'],
  built: ['添加了', '新增了', '创建了', '实现了'],
  cause: ['原因是', '导致的', '引起的', '造成的', '根本原因', '是因为'],
  where: ['部署在', '运行在', '监听', '位于', '存放在', '限制(?:为|在)', '限流', '最多', '至多'],
  copula: ['在', '使用', '需要', '是', '端口'],
  recurring: ['每天', '每晚', '每周', '每个周一', '按顺序', '优先'],
  narration: ['我来', '我先', '接下来', '要不要', '需要我'],
  hedge: ['可能', '也许', '大概', '我觉得', '似乎', '应该是'],
  narrative: ['一直想', '从来没', '一直是'],
};

const KO: LangWords = {
  scope: ['앞으로(?:는)?', '이제부터(?:는)?', '지금부터(?:는)?', '매번', '항상', '기본적으로', '이 (?:저장소|프로젝트|레포)(?:에서는|에서)', '할 때마다', '(?:할|하는) 때는', '경우에는'],
  always: ['항상', '늘', '반드시', '절대(?:로)?', '언제나', '꼭'],
  dont: ['지 마(?:세요|십시오|라)?', '하지 ?마', '쓰지 ?마', '금지', '안 ?돼', '말고'],
  verbs: ['세요', '주세요', '십시오', '해 ?줘', '해라', '할 것', '하도록', '합시다', '바랍니다'],
  modal: ['해야 (?:합니다|해|한다)', '야 (?:합니다|해|한다)', '필요가 있', '해야'],
  when: ['때는', '때에는', '때마다', '경우(?:에는|에)', '전에', '후에', '면'],
  contrast: ['대신(?:에)?', '말고', '아니라', '먼저', '그 ?다음', '만'],
  oneOff: ['방금', '아까', '이거', '그거', '이번(?:에|만)?', '다시', '또', '한 번 더', '일단', '지금은', '되돌려', '오늘', '까지'],
  idioms: ['됐어', '괜찮아', '신경 ?쓰지 ?마', '항상 즐거', '항상 고마', '천만에'],
  prefer: ['선호(?:합니다|해요|해)', '더 좋아(?:합니다|해요|해)', '좋겠어요', '편해요', '좋아합니다'],
  remember: ['기억해(?: ?줘| 주세요| 두세요| 둬)?', '참고로', '알아 ?둬', '알아 ?두세요'],
  critical: ['중요', '필수', '기억해', '주의'],
  work: ['코드', '테스트', '커밋', '브랜치', '파일', '함수', '답변', '응답', '주석', '문서', '마이그레이션', '데이터베이스', '스키마', '서버', '설정', '저장소', '레포', '프로젝트', '에러', '오류', '경고', '패키지', '의존성', '배포', '릴리스', '버전', 'api', 'main', 'pnpm', 'npm', '한국어', '영어'],
  ack: ['앞으로는', '앞으로 ', '기억하겠습니다', '명심하겠습니다'],
  status: ['(?:모든 )?테스트(?:가|를)? ?(?:모두 )?통과', '개 테스트 모두 통과', '완료(?:했습니다|되었습니다)?', '커밋했습니다', '커밋 완료', '푸시했습니다', '머지했습니다', '깨끗', '정상 (?:동작|작동)', '구현했습니다', '되돌렸습니다'],
  change: ['(?:으)?로 (?:변경|교체|전환|이전|이동|마이그레이션|업그레이드)(?:했습니다|하였습니다|했어요|함)', '(?:을|를) \\S+(?:으)?로 바꿨', '바꿨습니다', '고정했습니다', '결정했습니다', '선택했습니다'],
  built: ['추가했습니다', '만들었습니다', '구현했습니다'],
  cause: ['원인은', '때문이었습니다', '때문입니다', '때문에 발생', '(?:이|가) 원인', '로 인해'],
  where: ['에서 (?:제공|실행|동작|구동)(?:됩니다|되고 있습니다|중입니다)', '에 있습니다', '에 저장', '(?:으)?로 (?:요청이 )?제한(?:됩니다|되어 있습니다|돼 있어요)'],
  copula: ['을 사용합니다', '를 사용합니다', '입니다', '포트'],
  recurring: ['매일', '매주', '매일 밤', '매주 월요일', '순서대로', '우선(?:순위)?'],
  narration: ['하겠습니다', '해 ?볼게요', '확인해 ?보겠습니다', '할까요'],
  hedge: ['아마', '것 같습니다', '것 같아요', '수도 있습니다', '듯합니다'],
  narrative: ['항상 원했', '한 번도', '였어요', '였습니다'],
};

/** The rows, by language. */
export const LEXICON: Readonly<Record<Lang, LangWords>> = { en: EN, de: DE, fr: FR, es: ES, it: IT, pt: PT, nl: NL, ja: JA, zh: ZH, ko: KO };

/** Languages written without spaces between words: their entries match anywhere. */
const UNSPACED: ReadonlySet<Lang> = new Set(['ja', 'zh', 'ko']);

/** Letters and digits of the Latin-script rows (ASCII and Latin-1 to Latin Extended-B), without the `u` flag. */
const WORD_CHARS = 'a-z0-9_\\u00c0-\\u024f';
/** One word of a Latin-script text, lower case (apostrophes inside a word kept: "don't", "l'api"). */
const WORD = new RegExp(`[${WORD_CHARS}]+(?:'[${WORD_CHARS}]+)*`, 'g');

/** Where a role's phrase was found: its start (in the lower-cased text, as long as the text here) and the words matched. */
export interface RoleMatch {
  index: number;
  0: string;
}

/**
 * A role compiled for speed (a hook runs it once per process, on every sentence): entries that are
 * plain words are looked up by the text's words (no regular expression), the others (patterns, CJK
 * phrases) are one regular expression without the `i` and `u` flags over the lower-cased text.
 * Compiling the lists as case-insensitive Unicode alternations cost 80-330 ms on the first call and
 * 1-4 ms a sentence on this machine; this costs a few milliseconds to build and microseconds a test.
 */
export class Role {
  private readonly phrases = new Map<string, string[][]>();
  private readonly pattern: RegExp | undefined;

  constructor(spaced: readonly string[], unspaced: readonly string[]) {
    const patterns: string[] = [];
    for (const e of spaced) {
      const words = /^[a-z0-9\u00c0-\u024f' ]+$/.test(e) ? e.split(' ').filter(Boolean) : undefined;
      if (words?.length) {
        const list = this.phrases.get(words[0]!) ?? [];
        list.push(words);
        this.phrases.set(words[0]!, list);
      } else patterns.push(e.replaceAll('\\p{L}', `[a-z\\u00c0-\\u024f]`).replaceAll('\\p{N}', '0-9'));
    }
    const parts: string[] = [];
    if (patterns.length) parts.push(`(?<![${WORD_CHARS}'])(?:${patterns.join('|')})(?![${WORD_CHARS}])`);
    if (unspaced.length) parts.push(`(?:${unspaced.join('|')})`);
    this.pattern = parts.length ? new RegExp(parts.join('|'), 'g') : undefined;
  }

  /** Every match in `text` (case-insensitive), in order of their start. */
  all(text: string): RoleMatch[] {
    const low = lower(text);
    const out: RoleMatch[] = [];
    if (this.phrases.size) {
      const words = wordsOf(low);
      for (let i = 0; i < words.length; i++) {
        const cands = this.phrases.get(words[i]!.w);
        if (!cands) continue;
        for (const c of cands) {
          if (c.every((w, j) => words[i + j]?.w === w)) {
            const last = words[i + c.length - 1]!;
            out.push({ index: words[i]!.i, 0: low.slice(words[i]!.i, last.i + last.w.length) });
            break;
          }
        }
      }
    }
    if (this.pattern) {
      this.pattern.lastIndex = 0;
      for (const m of low.matchAll(this.pattern)) out.push({ index: m.index!, 0: m[0] });
    }
    return out.sort((x, y) => x.index - y.index);
  }

  /** The first match in `text`, or null (the shape of `RegExp.exec` the callers read: `index`, `[0]`). */
  exec(text: string): RoleMatch | null {
    return this.all(text)[0] ?? null;
  }

  test(text: string): boolean {
    const low = lower(text);
    if (this.phrases.size) {
      const words = wordsOf(low);
      for (let i = 0; i < words.length; i++) {
        const cands = this.phrases.get(words[i]!.w);
        if (cands?.some((c) => c.every((w, j) => words[i + j]?.w === w))) return true;
      }
    }
    if (!this.pattern) return false;
    this.pattern.lastIndex = 0;
    return this.pattern.test(low);
  }
}

// the same sentence is tested against every role: its lower case and words are computed once
let lastText = '';
let lastLower = '';
let lastWords: Array<{ w: string; i: number }> = [];
function lower(text: string): string {
  if (text !== lastText) {
    lastText = text;
    // toLowerCase keeps the length but for a few letters (İ); those are cut back to one code unit
    const l = text.toLowerCase().replace(/[’‘]/g, "'");
    lastLower = l.length === text.length ? l : Array.from(text, (c) => (c.toLowerCase().length === c.length ? c.toLowerCase() : c)).join('');
    lastWords = [];
    for (const m of lastLower.matchAll(WORD)) lastWords.push({ w: m[0], i: m.index! });
  }
  return lastLower;
}
function wordsOf(low: string): Array<{ w: string; i: number }> {
  return low === lastLower ? lastWords : [...low.matchAll(WORD)].map((m) => ({ w: m[0], i: m.index! }));
}

/** One role over the given languages (every language when none are given). */
export function roleOf(role: keyof LangWords, langs: readonly Lang[] = Object.keys(LEXICON) as Lang[]): Role {
  // a Latin-script word in a CJK row ("api", "main") is still a whole word
  const latin = (e: string) => /^[a-z]/.test(e);
  const unspaced = langs.filter((l) => UNSPACED.has(l)).flatMap((l) => LEXICON[l][role]);
  return new Role([...langs.filter((l) => !UNSPACED.has(l)).flatMap((l) => LEXICON[l][role]), ...unspaced.filter(latin)], unspaced.filter((e) => !latin(e)));
}

/**
 * Every role over every language, each compiled on its first use (a hook that reads only some of
 * them, or none, does not build the others).
 */
export const ROLE: Readonly<Record<keyof LangWords, Role>> = (() => {
  const roles = {} as Record<keyof LangWords, Role>;
  for (const k of Object.keys(EN) as Array<keyof LangWords>) {
    let built: Role | undefined;
    Object.defineProperty(roles, k, { enumerable: true, get: () => (built ??= roleOf(k)) });
  }
  return Object.freeze(roles);
})();

/** The Latin-script languages, and the unspaced ones. */
export const LATIN: readonly Lang[] = ['en', 'de', 'fr', 'es', 'it', 'pt', 'nl'];
const CJK_LANGS: readonly Lang[] = ['ja', 'zh', 'ko'];

/** The lower-case first word of a Latin-script clause, or undefined. */
export function firstWord(text: string): string | undefined {
  lower(text);
  return lastText === text ? lastWords[0]?.w : undefined;
}
