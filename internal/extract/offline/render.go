package offline

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/dreamd/dreamd/internal/extract"
	"github.com/dreamd/dreamd/internal/lazyre"
	"github.com/dreamd/dreamd/internal/memory"
	"github.com/dreamd/dreamd/internal/slug"
)

// The format's default caps; both are measured in bytes here, which is the stricter reading of
// the description's character cap. (Configured lower caps are met by validation's repairs.)
var (
	maxDescription = memory.DefaultLimits.DescriptionMax
	maxBody        = memory.DefaultLimits.MemoryMaxBytes
)

// operations turns the ledger into the run's operations, ordered by name.
func (l *ledger) operations() []extract.Operation {
	names := namer{taken: map[string]bool{}}
	for _, e := range l.entries {
		if e.memory != nil {
			names.taken[e.memory.Name] = true
		}
	}
	var ops []extract.Operation
	for _, e := range l.entries {
		if !e.retired && e.lesson == nil && len(e.repeatedBy) > 0 && !e.pinned() {
			ops = append(ops, extract.Operation{
				Action: extract.Reinforce, Name: e.memory.Name, MergedFrom: []string{}, Supersedes: []string{},
				Evidence: slices.Clone(e.repeatedBy),
				Reason:   "said again in " + sessionList(e.repeatedBy) + ", as this memory already says",
			})
		}
		if e.installedIn != "" {
			prog := notInstalledMemory.FindStringSubmatch(e.memory.Description)[1]
			ops = append(ops, extract.Operation{
				Action: extract.Delete, Name: e.memory.Name, MergedFrom: []string{}, Supersedes: []string{},
				Evidence: []string{e.installedIn},
				Reason:   fmt.Sprintf("`%s` ran and worked in session %s: it is installed now", prog, e.installedIn),
			})
		}
		if e.retired || e.lesson == nil {
			continue
		}
		ops = append(ops, e.operation(&names))
	}
	slices.SortFunc(ops, func(a, b extract.Operation) int { return strings.Compare(a.Name, b.Name) })
	return ops
}

func (e *entry) operation(names *namer) extract.Operation {
	n := e.lesson
	op := extract.Operation{
		Action:      extract.Create,
		Type:        n.typ,
		Description: description(n),
		Body:        body(n),
		MergedFrom:  []string{},
		Supersedes:  append([]string{}, e.supersedes...),
		Evidence:    slices.Clone(e.evidence),
	}
	reason := fmt.Sprintf("explicit user statement ('%s') in %s", n.label, sessionList(e.evidence))
	if n.basis != "" {
		reason = fmt.Sprintf("established by the session's turns (%s) in %s", n.label, sessionList(e.evidence))
	}
	if e.memory != nil {
		op.Action, op.Name = extract.Update, e.memory.Name
		reason += " replaces what this memory said"
	} else {
		op.Name = names.claim(nameKey(n))
	}
	if len(op.Supersedes) > 0 {
		reason += "; it supersedes " + strings.Join(op.Supersedes, ", ")
	}
	op.Reason = reason
	return op
}

func sessionList(ids []string) string {
	if len(ids) == 1 {
		return "session " + ids[0]
	}
	return "sessions " + strings.Join(ids[:len(ids)-1], ", ") + " and " + ids[len(ids)-1]
}

// description is the statement as one clean line: with its reason when that fits.
func description(n *lesson) string {
	if d := line(n.sentence); len(d) <= maxDescription {
		return d
	}
	return clip(line(n.rule), maxDescription)
}

// body follows the layout of docs/DESIGN.md: the rule, then why and how to apply it for rules and
// project facts; the statement and where it came from for user facts and references.
func body(n *lesson) string {
	var b string
	switch n.typ {
	case "feedback", "project":
		why := n.why
		if why == "" {
			why = provenance(n)
		}
		b = line(n.rule) + "\n\n**Why:** " + sentenceEnd(why) + "\n**How to apply:** " + howToApply(n)
	default:
		b = line(n.sentence) + "\n\nSource: " + sentenceEnd(provenance(n))
	}
	return clip(b, maxBody)
}

func provenance(n *lesson) string {
	if n.basis != "" {
		return n.basis
	}
	s := "stated by the user in session " + n.session.ID
	if n.message > 0 {
		s = fmt.Sprintf("stated by the user in their %s message of session %s", ordinal(n.message), n.session.ID)
	}
	if !n.session.Date.IsZero() {
		s += " on " + n.session.Date.Format("2006-01-02")
	}
	return s
}

func howToApply(n *lesson) string {
	where := projectName(n.session.Project)
	retired := phraseList(n.facts.retires)
	if n.typ == "feedback" {
		s := "Follow this whenever working in " + where + ", without waiting to be reminded."
		if retired != "" {
			s += " Do not fall back to " + retired + "."
		}
		return s
	}
	s := "Assume this when working in " + where + "."
	if retired != "" {
		s += " Treat mentions of " + retired + " as outdated."
	}
	if n.decision {
		s += " Build on this decision rather than reopening it."
	}
	return s
}

// projectName is the last element of the project's path, "this project" when unknown.
func projectName(path string) string {
	path = strings.TrimRight(path, `/\`)
	if i := strings.LastIndexAny(path, `/\`); i >= 0 {
		path = path[i+1:]
	}
	if path == "" || path == "." {
		return "this project"
	}
	return path
}

func phraseList(ps []phrase) string {
	var texts []string
	for _, p := range ps {
		texts = append(texts, p.text)
	}
	return andList(texts)
}

// line makes s one clean line that starts with a capital and ends with a full stop.
func line(s string) string {
	return capitalize(sentenceEnd(tidy(s)))
}

// sentenceEnd normalizes trailing punctuation to a single full stop. A text that trails off
// ("keep the lines…", a description cut to its index line) keeps its "…": a full stop would
// present the fragment as the whole lesson.
func sentenceEnd(s string) string {
	s = strings.TrimSpace(s)
	trailsOff := strings.HasSuffix(s, "…") || strings.HasSuffix(s, "...")
	s = strings.TrimRight(s, " .,;:!…—–-")
	switch {
	case s == "":
		return s
	case trailsOff:
		return s + "…"
	}
	return s + "."
}

// clip cuts s to at most max bytes at a word boundary, marking the cut with "…".
func clip(s string, max int) string {
	if len(s) <= max {
		return s
	}
	cut := max - len("…")
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	if i := strings.LastIndexAny(s[:cut], " \n"); i > cut/2 {
		cut = i
	}
	return strings.TrimRight(s[:cut], " \n.,;:") + "…"
}

// namer hands out names unique within the store.
type namer struct{ taken map[string]bool }

func (nm *namer) claim(base string) string {
	if base == "" {
		base = "lesson"
	}
	name := base
	for i := 2; nm.taken[name]; i++ {
		suffix := fmt.Sprintf("-%d", i)
		name = slug.Cut(base, slug.MaxLen-len(suffix)) + suffix
	}
	nm.taken[name] = true
	return name
}

// keyWordLimit and keyMaxLen keep names short: the memory index shows each name twice on its
// line (`- [name](name.md) — description`), so every character of a name is two the description
// loses. At 32 characters a line's description keeps 75 of its 150.
const (
	keyWordLimit = 6
	keyMaxLen    = 32
)

var (
	keyDrop = wordSet(`a an the this that these those we our us i my me you your they their them
		it its please just really also actually so very are was were be been am do does did will would
		should must can could shall may might of in on at for with by and or but as into onto about
		via per than then there here some any each every which who whom whose what when where how if
		because while ok okay user's users weve ive youre theyre thats lets ill id wed youll`)
	// keyTrail never ends a name: "user-is-new-to" says less than "user-is-new".
	keyTrail = wordSet(`is to from over instead not no of than as before after until during between`)
	negation = wordSet(`not no`)
	dateLike = lazyre.New(`\b(?:the week of )?\d{4}-\d{2}(?:-\d{2})?\b`)
	keyToken = lazyre.New(`[a-z0-9]+`)
	// userOpening is how thirdPerson opens a user fact; names say "user-…" instead.
	userOpening = lazyre.New(`^the user(?:s|\s+is|\s+has|\s+would)?\s+`)
)

func wordSet(words string) map[string]bool {
	set := map[string]bool{}
	for _, w := range strings.Fields(words) {
		set[w] = true
	}
	return set
}

// nameKey is the short key phrase a new memory is named after: at most six content words of
// the statement ("always-run-make-lint-first", "database-is-postgres").
func nameKey(n *lesson) string {
	s := urlRE.ReplaceAllStringFunc(n.core, urlHost)
	s = dateLike.ReplaceAllString(s, " ")
	s = strings.ReplaceAll(strings.ToLower(s), "'", "")
	if n.typ == "user" {
		s = userOpening.ReplaceAllString(s, "user ")
	}
	var words []string
	seen := map[string]bool{}
	for _, w := range keyToken.FindAllString(s, -1) {
		if keyDrop[w] || seen[w] {
			continue
		}
		seen[w] = true
		words = append(words, w)
		if len(words) == keyWordLimit {
			break
		}
	}
	// Too long, the link words go first ("migrated-postgres-cockroachdb" keeps where it went),
	// then words from the end.
	for linked := true; ; {
		for len(words) > 1 && keyTrail[words[len(words)-1]] {
			words = words[:len(words)-1]
		}
		if len(words) <= 1 || len(slug.Make(strings.Join(words, " "))) <= keyMaxLen {
			break
		}
		if linked {
			linked = false
			// a negation stays: "rg-installed-projects-shell" would say the opposite
			if kept := slices.DeleteFunc(slices.Clone(words), func(w string) bool { return keyTrail[w] && !negation[w] }); len(kept) > 0 {
				words = kept
				continue
			}
		}
		words = words[:len(words)-1]
	}
	if len(words) == 0 && n.lang != "" {
		return "rule-" + n.lang // a rule in a script no slug can be made of
	}
	return slug.Cut(slug.Make(strings.Join(words, " ")), keyMaxLen)
}

// urlHost stands for a URL in a name: its host without "www." and the top-level domain, and the
// first element of its path.
func urlHost(u string) string {
	rest := u[strings.Index(u, "://")+3:]
	host, path, _ := strings.Cut(rest, "/")
	if i := strings.IndexAny(host, "?#:"); i >= 0 {
		host = host[:i]
	}
	host = strings.TrimPrefix(host, "www.")
	if i := strings.LastIndexByte(host, '.'); i > 0 {
		host = host[:i]
	}
	first, _, _ := strings.Cut(path, "/")
	if i := strings.IndexAny(first, "?#"); i >= 0 {
		first = first[:i]
	}
	return " " + host + " " + first + " "
}

// ordinal is 1st, 2nd, 3rd, 4th, … 11th, 12th, 13th, 21st.
func ordinal(n int) string {
	suffix := "th"
	switch {
	case n%100 >= 11 && n%100 <= 13:
	case n%10 == 1:
		suffix = "st"
	case n%10 == 2:
		suffix = "nd"
	case n%10 == 3:
		suffix = "rd"
	}
	return fmt.Sprintf("%d%s", n, suffix)
}
