// English, an OpenAI Chat Completions message array that starts with Claude Code's own
// continuation summary (the marker sentence, then our own wording of the earlier facts): facts
// from before the summary exist only in it. Then: a rule the user changes (rounding), a correction
// the agent admits, `go test` failing then passing, a commit, a shell-init line in every result,
// dumps (go env, a path list) beside a large useful result (the bank's CSV spec).
import { Script, pathList, configDump } from '../build/script.mjs';
import { CLAUDE_CONTINUATION } from '../build/hosts.mjs';

const P = '/home/ana/src/ledgerlite';
const INIT = 'direnv: error /home/ana/src/.envrc is blocked. Run `direnv allow` to approve its content';
const bash = (command, out, opts = {}) => ({ name: 'bash', input: { command }, output: `${INIT}\n${out}`, ...opts });

export function build() {
  const s = new Script({ id: 'en-openai-ledgerlite', seed: 31, cwd: P, start: '2026-11-26T19:40:00.000Z', model: 'claude-sonnet-4-5' });
  s.user(`${CLAUDE_CONTINUATION}\n\n${SUMMARY}`);
  s.say("Continuing with step 14 of the plan: the `import` command for the bank's CSV. I'll check the state of the tree first.");
  s.tools([bash('cd ~/src/ledgerlite && git status --short && git log --oneline -3', ' M cmd/import.go\n?? internal/csvbank/\n8c2d1f4 split: shares by weight, remainder to the first payer\n31ab9e0 ledger file format v1 (TOML)\n0f3c772 cobra skeleton: add, list, balance')]);
  s.tools([{ name: 'read_file', input: { path: 'docs/bank-csv-spec.md' }, output: BANK_SPEC }]);
  s.tools([{ name: 'write_file', input: { path: 'internal/csvbank/parse.go', content: PARSE_GO }, output: 'wrote 1893 bytes to internal/csvbank/parse.go' }]);
  s.tools([bash('go test ./... 2>&1 | tail -20', GO_FAIL, { error: true })]);
  s.say('The parser reads amounts with a dot, but the spec says the bank writes a decimal comma (`-12,50`). Fixing `parseCents`.');
  s.tools([{ name: 'edit_file', input: { path: 'internal/csvbank/parse.go', old: 'strings.Split(raw, ".")', new: 'strings.Split(strings.ReplaceAll(raw, ".", ""), ",")' }, output: 'edited internal/csvbank/parse.go (1 replacement)' }]);
  s.tools([bash('go test ./... 2>&1 | tail -8', 'ok  \tledgerlite/internal/ledger\t0.012s\nok  \tledgerlite/internal/split\t0.009s\nok  \tledgerlite/internal/csvbank\t0.015s\nok  \tledgerlite/cmd\t0.031s')]);
  s.tools([bash('go env', configDump(32, 60, 'GO', ['GOVERSION=\'go1.23.4\'', 'GOPATH=\'/home/ana/go\'', 'GOFLAGS=\'\'']))]);
  s.say('All packages pass. The split uses banker\'s rounding on the half cent, as we decided earlier.');
  s.user("no, that's not what we decided. we said: amounts are integer cents everywhere and the remainder cent goes to the first payer. there is no rounding at all, that's the whole point of cents.");
  s.say("You're right, I misremembered: there is no rounding step. Amounts are `int64` cents end to end and the remainder cents go to the first payer (`split.Even` already does that). I'll remove the `roundHalfEven` helper I added in `parse.go`.");
  s.tools([{ name: 'edit_file', input: { path: 'internal/csvbank/parse.go', old: 'return roundHalfEven(f * 100), nil', new: 'return whole*100 + frac, nil' }, output: 'edited internal/csvbank/parse.go (1 replacement)' }]);
  s.tools([bash('grep -rn "float" --include=*.go . | grep -v _test', './internal/csvbank/parse.go:44:func roundHalfEven(f float64) int64 {')]);
  s.tools([{ name: 'edit_file', input: { path: 'internal/csvbank/parse.go', old: ROUND_FN, new: '' }, output: 'edited internal/csvbank/parse.go (1 replacement)' }]);
  s.tools([bash('go vet ./... && go test ./... 2>&1 | tail -5', 'ok  \tledgerlite/internal/ledger\t0.011s\nok  \tledgerlite/internal/split\t0.010s\nok  \tledgerlite/internal/csvbank\t0.014s\nok  \tledgerlite/cmd\t0.029s')]);
  s.tools([bash('find . -path ./.git -prune -o -type f -print | head -300', pathList(33, '.', 200))]);
  s.user('ok. one change to the import rule: we said skip rows whose booking text starts with "UMBUCHUNG" (internal transfers). make that any row where the counterparty IBAN is one of our own accounts instead, the text prefix is unreliable. our IBANs are in ledger.toml under [accounts].');
  s.say('Changing the rule: a row is an internal transfer when its counterparty IBAN is one of the `[accounts]` IBANs in `ledger.toml`; the `UMBUCHUNG` text prefix no longer matters.');
  s.tools([{ name: 'read_file', input: { path: 'ledger.toml' }, output: LEDGER_TOML }]);
  s.tools([{ name: 'edit_file', input: { path: 'internal/csvbank/parse.go', old: 'if strings.HasPrefix(row.Text, "UMBUCHUNG") {', new: 'if own[row.CounterIBAN] {' }, output: 'edited internal/csvbank/parse.go (1 replacement)' }]);
  s.tools([{ name: 'edit_file', input: { path: 'internal/csvbank/parse_test.go', old: 'func TestSkipsUmbuchung(t *testing.T) {', new: 'func TestSkipsOwnAccountTransfers(t *testing.T) {' }, output: 'edited internal/csvbank/parse_test.go (1 replacement)' }]);
  s.tools([bash('go test ./internal/csvbank/ -run . -v 2>&1 | tail -12', 'FAIL: TestSkipsOwnAccountTransfers (0.00s)\n    parse_test.go:61: got 4 rows, want 3 (own-account transfer DE44 5001 0517 5407 3249 31 not skipped)\nFAIL\nFAIL\tledgerlite/internal/csvbank\t0.013s', { error: true })]);
  s.say('The IBAN in the CSV has spaces; `ledger.toml` has none. Normalizing both with `strings.ReplaceAll(iban, " ", "")` before the lookup.');
  s.tools([{ name: 'edit_file', input: { path: 'internal/csvbank/parse.go', old: 'if own[row.CounterIBAN] {', new: 'if own[normIBAN(row.CounterIBAN)] {' }, output: 'edited internal/csvbank/parse.go (1 replacement)' }]);
  s.tools([bash('go test ./... 2>&1 | tail -5 && go test ./... -count=1 2>&1 | grep -c "^ok"', 'ok  \tledgerlite/internal/ledger\t0.011s\nok  \tledgerlite/internal/split\t0.009s\nok  \tledgerlite/internal/csvbank\t0.016s\nok  \tledgerlite/cmd\t0.030s\n4')]);
  s.tools([bash('git add -A && git commit -qm "import: bank CSV (decimal comma, own-account transfers skipped by IBAN)" && git log --oneline -1', 'e47b0c3 import: bank CSV (decimal comma, own-account transfers skipped by IBAN)')]);
  s.say('Committed `e47b0c3`. Step 14 (import) is done; all 4 packages pass. Step 15 of 20 is next: `ledgerlite report --month` (per-person totals for one month).');
  s.user('go on with 15');
  s.tools([{ name: 'read_file', input: { path: 'cmd/balance.go' }, output: BALANCE_GO }]);
  s.say("I'll add `cmd/report.go` reusing `ledger.Load` and `split.Balances`, filtered to the month given as `--month 2026-11`.");
  return { file: 'en-openai-ledgerlite.json', host: 'openai', script: s, options: { system: SYSTEM } };
}

const SYSTEM = 'You are a coding agent working in the user\'s repository. Use the tools to read and change files and to run commands. Keep answers short.';

const SUMMARY = `Summary of the earlier conversation (facts the work depends on):

Goal: ledgerlite, a Go command-line tool (cobra) at ~/src/ledgerlite that splits a shared household's expenses between its members and imports the bank's CSV export. The user and the agent wrote a 20-step plan in docs/PLAN.md; steps 1-13 are done, step 14 (the \`import\` command for the bank CSV) is in progress.

Decisions and rules the user set:
- Amounts are integer cents (int64) everywhere; never float64 for money.
- A split gives shares by weight; the remainder cents go to the first payer (split.Even, commit 8c2d1f4).
- The ledger file is TOML (ledger.toml), format v1, commit 31ab9e0; members and their weights live under [members].
- Rows whose booking text starts with "UMBUCHUNG" are internal transfers and are skipped on import.
- Tests: \`go test ./...\` must pass before each commit; no third-party dependency besides cobra and BurntSushi/toml.
- The user corrected the agent once: the bank CSV is semicolon-separated (not comma), with a header line of 7 columns.

Errors and fixes: \`go test\` failed on split with a 1-cent drift when the agent used float division; fixed by integer division with remainder (commit 8c2d1f4).

State when the context ran out: internal/csvbank/ was created (untracked), cmd/import.go modified; the bank's format is described in docs/bank-csv-spec.md (read it before parsing). Last test run before this: 3 packages ok.

Next step: write internal/csvbank/parse.go against docs/bank-csv-spec.md, test, commit, then step 15 (report --month).`;

const BANK_SPEC = `# Bank CSV export (Sparkasse-style "CAMT CSV"), as observed on 2026-11-02

The online banking "Export -> CSV (CAMT)" file. Encoding: UTF-8 with BOM (older exports: ISO-8859-1). Separator: semicolon. Quote: double quote around every field. One header line.

## Columns (7)
1. "Auftragskonto": our IBAN, without spaces.
2. "Buchungstag": booking date, DD.MM.YY.
3. "Valutadatum": value date, DD.MM.YY (ignore).
4. "Buchungstext": booking type, e.g. "LASTSCHRIFT", "GUTSCHRIFT", "KARTENZAHLUNG", "UMBUCHUNG", "ONLINE-UEBERWEISUNG". Not reliable: card refunds and standing orders between own accounts both appear as "UMBUCHUNG" or "GUTSCHRIFT" depending on the branch.
5. "Beguenstigter/Zahlungspflichtiger": counterparty name.
6. "Kontonummer/IBAN": counterparty IBAN, **printed in groups of four with spaces** ("DE44 5001 0517 5407 3249 31"); empty for card payments.
7. "Betrag": amount with a **decimal comma** and a dot for thousands ("-1.234,56"); negative = money out. Always two decimals.

## Quirks
- The last line can be a totals line starting with "Summe"; skip it.
- Dates are two-digit years; 00-69 -> 20xx.
- A field can contain a semicolon inside quotes (counterparty names like "Müller; Hausverwaltung").
- Duplicate exports overlap by one day; deduplicate on (Buchungstag, Betrag, IBAN, name).

## Example
"Auftragskonto";"Buchungstag";"Valutadatum";"Buchungstext";"Beguenstigter/Zahlungspflichtiger";"Kontonummer/IBAN";"Betrag"
"DE12500105170648489890";"03.11.26";"03.11.26";"LASTSCHRIFT";"Stadtwerke";"DE89 3704 0044 0532 0130 00";"-84,20"
"DE12500105170648489890";"04.11.26";"04.11.26";"UMBUCHUNG";"Ana Lima";"DE44 5001 0517 5407 3249 31";"-500,00"
"DE12500105170648489890";"05.11.26";"05.11.26";"KARTENZAHLUNG";"REWE Markt";"";"-1.034,56"`;

const PARSE_GO = `package csvbank

// Parse reads the bank's CAMT CSV export (docs/bank-csv-spec.md) into rows with amounts in cents.
func Parse(r io.Reader, own map[string]bool) ([]Row, error) {
	cr := csv.NewReader(r)
	cr.Comma = ';'
	cr.FieldsPerRecord = 7
	// ...
}

func parseCents(raw string) (int64, error) {
	parts := strings.Split(raw, ".")
	f, err := strconv.ParseFloat(strings.Join(parts, "."), 64)
	if err != nil {
		return 0, err
	}
	return roundHalfEven(f * 100), nil
}`;

const ROUND_FN = 'func roundHalfEven(f float64) int64 {\n\treturn int64(math.RoundToEven(f))\n}';

const GO_FAIL = `--- FAIL: TestParseExample (0.00s)
    parse_test.go:22: row 3: strconv.ParseFloat: parsing "-1.034,56": invalid syntax
FAIL
FAIL\tledgerlite/internal/csvbank\t0.014s
ok  \tledgerlite/internal/ledger\t0.010s
ok  \tledgerlite/internal/split\t0.009s
FAIL`;

const LEDGER_TOML = `version = 1

[members]
ana = 1.0
jonas = 1.0
mira = 0.5

[accounts]
household = "DE12500105170648489890"
ana_private = "DE44500105175407324931"`;

const BALANCE_GO = `package cmd

var balanceCmd = &cobra.Command{
	Use:   "balance",
	Short: "Who owes whom, in cents",
	RunE: func(cmd *cobra.Command, args []string) error {
		l, err := ledger.Load(ledgerPath)
		if err != nil {
			return err
		}
		for _, b := range split.Balances(l) {
			fmt.Printf("%-8s %s\\n", b.Member, money(b.Cents))
		}
		return nil
	},
}`;
