/**
 * What one user prompt leaves as standing memory (README "Standing memory"): a lasting rule or
 * preference, an explicit memory request, `critical` only under the user's mark, a decision with its
 * reason, a stated value; nothing from host text, one-off orders, idioms, complaints or questions.
 */
import { hostWritten } from './host-text.js';
import { ACK, CJK, CODE_LINE, CORRECTION_ONLY, LEAD_IN, environmentFacts, hasValue, isNoise, proseOf, sentencesOf, userDecisionsOf } from './harvest-rules.js';
import { LEXICON } from './standing-lexicon.js';
import {
  ALL_CRITICAL,
  CODE_TOKEN,
  NAMED_CODE,
  PROMPT_FRAMES_MAX,
  PROMPT_SENTENCES_MAX,
  REMEMBER_AFTER,
  RULE_MODAL,
  STANDING_INPUT_CHARS,
  anchoredIn,
  capitalize,
  clauseOf,
  clip,
  isSteering,
  kindOf,
  oneOffOf,
  ruleStrength,
  type StandingFrame,
  type StandingKind,
} from './standing-clause.js';
import { NAME_INSIDE, acknowledgesRule, findingOf } from './standing-reply.js';
import { correctionOf } from './correction.js';

/** "critical:", "**IMPORTANT:**", "重要：", "Wichtig:" opening the message. */
const CRITICAL_MARK = new RegExp(`^[\\s*_#>【\\[]*(?:${ALL_CRITICAL.join('|')})[\\s*_】\\]]*[:：]\\s*[*_]*\\s*`, 'iu');
/** A memory request opening the message ("remember that …", "keep in mind that …", "覚えておいて"), after its lead-ins. */
const REMEMBER = new RegExp(`^(?:${Object.values(LEXICON).flatMap((l) => l.remember).join('|')})(?:\\s*[:,，、]\\s*|\\s+)`, 'iu');
/** What a preference names when it is about the project rather than the user: its code, tests, structure or tooling. */
const PROJECT_PREFERENCE = /(?<![\p{L}])(?:tests?|specs?|parser|modules?|components?|functions?|class(?:es)?|apis?|endpoints?|databases?|schemas?|migrations?|files?|folders?|branch(?:es)?|repo(?:sitory)?|project|codebase|builds?|ci|deploy(?:s|ments)?|pipelines?|packages?|librar(?:y|ies)|frameworks?|テスト|モジュール|リポジトリ|测试|模块|仓库|테스트|모듈|저장소)(?![\p{L}])/iu;
/** A rule named as such ("the invariant that …", "the rule is that …", "our convention that …"): its clause is the rule. */
const NAMED_RULE = /\b(?:invariant|rule|convention|requirement|contract|policy|guideline|principle)\s+(?:is\s+)?that\s+(.{12,300})$/i;

// ---------------------------------------------------------------------------------------------
// A prompt

/**
 * The standing frames of one user prompt (already redacted), in the order of its sentences, at most
 * {@link PROMPT_FRAMES_MAX}:
 * - `critical` only under the user's explicit mark opening the prompt ("critical:", "important:",
 *   "remember:", "Wichtig:", "重要：", "중요:" …): one frame of what follows the mark;
 * - an explicit memory request ("remember that …", "keep in mind that …", "merk dir, dass …"):
 *   one `important` frame of what follows;
 * - each sentence that is a lasting rule (see the module comment) as an `instruction`, `important`
 *   with a lasting scope or always/never, else `normal`; a preference about oneself as a `preference`;
 * - with `reply` (the agent's answer to this prompt), an instruction the prompt phrased without a
 *   lasting word but the reply acknowledges as lasting ("Use vitest for new tests." / "Got it, I'll
 *   use vitest from now on."), `normal`;
 * - a choice with its reason as a `decision`, and stated values ("the staging API listens on port
 *   8443") as `environment` facts, each `normal`.
 * Host-written text, slash commands, acknowledgements, questions, one-off orders, idioms, venting,
 * complaints and pasted logs give nothing.
 */
export function promptStanding(text: string, opts: { reply?: string } = {}): StandingFrame[] {
  const t = text.slice(0, STANDING_INPUT_CHARS).trim();
  if (!t || hostWritten(t)) return [];
  if (/^\/[\w:.-]*(?:\s+\S+){0,3}\s*$/.test(t) || ACK.test(t)) return [];
  const mark = CRITICAL_MARK.exec(t);
  if (mark) {
    const body = bodyOf(t.slice(mark[0].length), false);
    return body ? [{ kind: kindOf(body), importance: 'critical', content: body, key: 'mark' }] : [];
  }
  const lead = t.replace(LEAD_IN, '');
  const remember = REMEMBER.exec(lead);
  if (remember) {
    const body = bodyOf(lead.slice(remember[0].length), true, 1);
    if (body && !/[?？]\s*$/.test(body)) return [{ kind: kindOf(body), importance: 'important', content: body, key: 'remember' }];
  }
  const after = REMEMBER_AFTER.exec(lead);
  if (after && after.index > 0) {
    const body = bodyOf(lead.slice(0, after.index), true, 1);
    if (body && !/[?？]\s*$/.test(body)) return [{ kind: kindOf(body), importance: 'important', content: body, key: 'remember' }];
  }
  const cjk = CJK.test(t);
  if (!cjk && t.split(/\s+/).length < 3) return [];
  const sentences = sentencesOf(proseOf(t), cjk)
    .slice(0, PROMPT_SENTENCES_MAX)
    .filter((s) => !CODE_LINE.test(s) && !isNoise(s))
    .map((s) => {
      // a rule named as such inside a remark ("… doesn't adhere to the invariant that every line … must not be wider than the width")
      const named = NAMED_RULE.exec(s);
      return named && RULE_MODAL.test(named[1]!) ? capitalize(named[1]!.trim()) : s;
    });
  const clauses = sentences.map(clauseOf);
  const steering = isSteering(clauses);
  const acknowledged = opts.reply !== undefined && acknowledgesRule(opts.reply);
  const out: StandingFrame[] = [];
  let run: { frame: StandingFrame; parts: string[]; end: number } | undefined;
  clauses.forEach((c, i) => {
    // a memory request opening a later sentence ("… Also remember that my editor font is Iosevka")
    const asked = i > 0 ? REMEMBER.exec(c.text.replace(LEAD_IN, '')) : null;
    if (asked) {
      const body = bodyOf(c.text.replace(LEAD_IN, '').slice(asked[0].length), true, 1);
      if (body && !c.question) out.push({ kind: kindOf(body), importance: 'important', content: body, key: `p${i}` });
      return;
    }
    const strength = ruleStrength(c, steering);
    let kind: StandingKind | undefined;
    let importance: StandingFrame['importance'] = 'normal';
    // a preference about the project ("I would only want e2e tests for the parser") is a rule of the work, not of the user
    const preference = PROJECT_PREFERENCE.test(c.text) || CODE_TOKEN.test(c.text) ? 'instruction' : 'preference';
    if (strength) {
      kind = c.prefer ? preference : 'instruction';
      importance = strength === 'strong' ? 'important' : 'normal';
    } else if (c.prefer && !c.question && !c.oneOff && !c.narrative && !c.hedged) kind = preference;
    else if (acknowledged && c.imperative && !c.question && !c.oneOff && !c.idiom && !c.narrative && !CORRECTION_ONLY.test(c.text)) kind = 'instruction';
    if (!kind) return;
    // rules said one after another are one memory ("Use pnpm. Don't use npm."), at most 3 sentences
    if (run && run.frame.kind === kind && run.end === i - 1 && run.parts.length < 3) {
      run.parts.push(c.text);
      run.end = i;
      run.frame.content = clip(run.parts.join(c.cjk ? '' : ' '));
      if (importance === 'important') run.frame.importance = 'important';
      return;
    }
    const frame: StandingFrame = { kind, importance, content: clip(c.text), key: `p${i}` };
    out.push(frame);
    run = { frame, parts: [c.text], end: i };
  });
  // what the user states as found or done, by the reply's classes: a cause, a switch, a schedule or an order ("release branches are cut every Monday")
  clauses.forEach((c, i) => {
    if (out.some((f) => f.key === `p${i}` || f.content.includes(c.text)) || c.imperative || c.question || c.oneOff || c.hedged || c.narrative || c.idiom) return;
    const kind = findingOf(c.text);
    // a switch the user reports must name what it switched (a tool, a path, a version): "I chose them 'cause…" is a story
    // what the project uses or runs on, and a correction naming the value it replaces, are facts of the work as the user states them
    const stated = (kind === 'environment' && (hasValue(c.text) || NAMED_CODE.test(c.text) || NAME_INSIDE.test(c.text))) || (kind === 'decision' && !!correctionOf(c.text)?.changed);
    if (kind === 'fact' || stated || (kind === 'decision' && (NAMED_CODE.test(c.text) || hasValue(c.text)))) out.push({ kind: kind!, importance: 'normal', content: clip(c.text), key: `p${i}` });
  });
  const said = out.map((f) => f.content);
  const held = (s: string) => said.some((x) => x.includes(s) || s.includes(x));
  userDecisionsOf(t)
    .filter((d) => !held(d) && !oneOffOf(d) && anchoredIn(d, CJK.test(d)))
    .forEach((d, i) => out.push({ kind: 'decision', importance: 'normal', content: clip(d), key: `dec${i}` }));
  environmentFacts(t)
    .filter((f) => !held(f) && !out.some((x) => x.content.includes(f)))
    .filter((f) => {
      const c = clauseOf(f);
      return !c.imperative && !c.oneOff && !c.question && !c.hedged;
    })
    .forEach((f, i) => out.push({ kind: 'environment', importance: 'normal', content: clip(f), key: `env${i}` }));
  return out.slice(0, PROMPT_FRAMES_MAX);
}

/** The first sentences (at most `max`) of what follows a mark, pasted lines removed; capitalized when `cap`. */
function bodyOf(rest: string, cap: boolean, max = 3): string | undefined {
  const cjk = CJK.test(rest);
  const ss = sentencesOf(proseOf(rest), cjk).slice(0, max);
  const body = ss.join(cjk ? '' : ' ').trim() || rest.trim();
  if (!body || (!cjk && body.length < 8)) return undefined;
  return clip(cap ? capitalize(body) : body);
}
