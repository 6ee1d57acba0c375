package extract

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/dreamd/dreamd/internal/memory"
	"github.com/dreamd/dreamd/internal/redact"
	"github.com/dreamd/dreamd/internal/sanitize"
	"github.com/dreamd/dreamd/internal/slug"
)

// Validated is what Validate makes of a response.
type Validated struct {
	Operations []Operation // may reach the plan, normalized and repaired
	Rejected   []Rejected  // dropped, each with why
	Repaired   []Repaired  // what was mended in accepted operations
}

// Repaired is a mechanical fault of an operation that validation mended instead of dropping it.
type Repaired struct {
	Name string `json:"name"`
	What string `json:"what"`
}

// reservedNames are valid slugs that must not name a memory: "memory.md" is MEMORY.md on a
// case-insensitive file system, and Windows takes the device names for its devices whatever their
// extension ("con.md" is the console, "nul.md" discards what is written): a store shared through
// git or a synced folder must open there too.
var reservedNames = []string{"memory", "con", "prn", "aux", "nul",
	"com1", "com2", "com3", "com4", "com5", "com6", "com7", "com8", "com9",
	"lpt1", "lpt2", "lpt3", "lpt4", "lpt5", "lpt6", "lpt7", "lpt8", "lpt9"}

// Validate checks the model's operations against req's memories and sessions, in order, and
// returns those that may reach the plan and those dropped, each with a short reason. Accepted
// operations come back normalized: trimmed text, create of an existing memory turned into update,
// lists without duplicates, evidence limited to the digest's session ids, secrets in the reason
// redacted. A fault that is mechanical to mend is mended and reported instead of losing the lesson
// (see repair). Rejected operations come back with every secret redacted, so a report can show
// them. A nil Redactor means the built-in patterns.
func Validate(resp Response, req Request, lim memory.Limits, r *redact.Redactor) Validated {
	v := newValidator(req, lim, r)
	var out Validated
	for _, op := range resp.Operations {
		raw := op
		op = normalize(op)
		fixes, ambiguity := v.resolveNames(&op)
		fixes = append(normalized(raw, op), append(fixes, v.repair(&op)...)...)
		if reason := v.check(&op, ambiguity); reason != "" {
			out.Rejected = append(out.Rejected, Rejected{Operation: v.scrub(op), Reason: reason})
			continue
		}
		v.accept(op)
		op.Reason, _ = v.redactor.Redact(op.Reason)
		op.Evidence = v.evidence(op.Evidence)
		out.Operations = append(out.Operations, op)
		for _, f := range fixes {
			f, _ = v.redactor.Redact(f) // it may quote what the model wrote, a credential included
			out.Repaired = append(out.Repaired, Repaired{Name: op.Name, What: f})
		}
	}
	return out
}

// resolveNames turns each name op gives (its own, merged_from, supersedes) into the memory it
// means: the existing memory it names (see refer), else the slug of what was written. A memory
// written by hand may have any file name ("OrdersDB.md", "Orders DB.md"), and a model may write it
// slugged or in another case; resolving it keeps the lesson, and the plan writes the file that is
// there instead of a near-duplicate. It says what it mended, and, as ambiguity, why op must be
// dropped when its own name matches several memories (for check, which reports a secret first).
// A list's name that does, like one that matches none, is left out of the list (the memory stays).
func (v *validator) resolveNames(op *Operation) (fixes []string, ambiguity string) {
	given := op.Name
	name, how, ambiguous := v.refer(given)
	op.Name = name
	switch {
	case len(ambiguous) > 0:
		ambiguity = fmt.Sprintf("%s of %.80q is ambiguous: it matches the memories %s", op.Action, given, quoted(ambiguous))
	case how != "":
		fixes = append(fixes, how)
	}
	for _, list := range []*[]string{&op.MergedFrom, &op.Supersedes} {
		kept := (*list)[:0]
		for _, given := range *list {
			name, how, ambiguous := v.refer(given)
			if len(ambiguous) > 0 {
				fixes = append(fixes, fmt.Sprintf("%.60q matches the memories %s: ambiguous, left out of merged_from/supersedes", given, quoted(ambiguous)))
				continue
			}
			if _, ok := v.existing[name]; ok && how != "" {
				fixes = append(fixes, how) // an unknown one is reported when repair leaves it out
			}
			kept = append(kept, name)
		}
		*list = uniq(kept, op.Name)
	}
	return fixes, ambiguity
}

// refer resolves a name given in an operation (trimmed). A name of an existing memory is that
// memory (a file name's ".md" aside), and so is a name that matches exactly one memory
// case-insensitively ("ordersdb" for OrdersDB.md), else exactly one by its slug ("orders-db" for
// "Orders DB.md"), else exactly one by its slug without hyphens ("orders-db" for OrdersDB.md,
// which slugs to "ordersdb"). Several matches at the first rule that finds any are returned as
// ambiguous, name then being given unchanged. Any other name becomes its slug. how says what was
// mended, "" when nothing was.
func (v *validator) refer(given string) (name, how string, ambiguous []string) {
	if _, ok := v.existing[given]; ok {
		return given, "", nil
	}
	stem := strings.TrimSuffix(given, ".md")
	if _, ok := v.existing[stem]; ok {
		return stem, "", nil
	}
	if pathLike(given) {
		return given, "", nil // refused by check: a path never resolves to a memory
	}
	key := slugKey(stem)
	squashed := strings.ReplaceAll(key, "-", "")
	for _, same := range []func(int) bool{
		func(i int) bool { return strings.EqualFold(v.names[i], stem) },
		func(i int) bool { return key != "" && v.keys[i] == key },
		func(i int) bool { return squashed != "" && strings.ReplaceAll(v.keys[i], "-", "") == squashed },
	} {
		var found []string
		for i, n := range v.names {
			if same(i) {
				found = append(found, n)
			}
		}
		switch {
		case len(found) == 1:
			return found[0], fmt.Sprintf("name %.60q refers to the existing memory %q", given, found[0]), nil
		case len(found) > 1:
			return given, "", found
		}
	}
	name = slugged(given)
	if name != stem && slug.Valid(name) {
		how = fmt.Sprintf("name %.40q written as the slug %q", given, name)
	}
	return name, how, nil
}

// slugKey is the slug of name before any cut to slug.MaxLen: two long names that differ only past
// the cut are different memories.
func slugKey(name string) string {
	return strings.Join(strings.FieldsFunc(strings.ToLower(name), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9')
	}), "-")
}

// quoted lists names for a reason: "a", "b" and "c".
func quoted(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%.60q", n)
	}
	if len(q) == 1 {
		return q[0]
	}
	return strings.Join(q[:len(q)-1], ", ") + " and " + q[len(q)-1]
}

// repair mends what a careful reader would mend without asking: a description too long for its
// index line (shortened at a word), memories to merge or supersede that do not exist (left out),
// evidence written as "kind:id" (the id kept). It says what it did. (Names are resolveNames'.)
func (v *validator) repair(op *Operation) []string {
	var fixes []string
	if op.Action == Create || op.Action == Update {
		budget := v.lim.DescriptionBudget(op.Name)
		if n := utf8.RuneCountInString(op.Description); n > budget {
			op.Description = shorten(op.Description, budget)
			fixes = append(fixes, fmt.Sprintf("description shortened from %d to %d characters to fit its index line", n, utf8.RuneCountInString(op.Description)))
		}
	}
	for _, list := range []*[]string{&op.MergedFrom, &op.Supersedes} {
		*list = slices.DeleteFunc(*list, func(name string) bool {
			if _, ok := v.existing[name]; ok || strings.ContainsAny(name, "/\\.") {
				return false // known, or a path: refused by check, not quietly dropped
			}
			fixes = append(fixes, fmt.Sprintf("unknown memory %.60q left out of merged_from/supersedes", name))
			return true
		})
	}
	for i, id := range op.Evidence {
		if _, bare, ok := strings.Cut(id, ":"); ok && !v.sessions[id] && v.sessions[bare] {
			op.Evidence[i] = bare
		}
	}
	if fix := v.repairScope(op); fix != "" {
		fixes = append(fixes, fix)
	}
	return fixes
}

// repairScope keeps in this store an operation whose scope has no store in this pass, and one
// that cannot leave it: a delete or reinforce acts on this store's own memories.
func (v *validator) repairScope(op *Operation) string {
	own := v.scopes[0]
	switch {
	case op.Scope == "" || op.Scope == own:
		op.Scope = own
	case own != memory.ScopeProject:
		// The user's and the team's stores send nothing on: checkScope refuses it instead.
	case !slices.Contains(v.scopes, op.Scope):
		was := op.Scope
		op.Scope = own
		return fmt.Sprintf("scope %.20q has no store in this pass; kept in the %s store", was, own)
	case op.Action == Delete || op.Action == Reinforce:
		was := op.Scope
		op.Scope = own
		return fmt.Sprintf("a %s acts on this store's memories; scope %q is %q", op.Action, was, own)
	case op.Scope == memory.ScopeUser && (op.Type == memory.Project || op.Type == memory.Reference):
		// The user scope follows the person into every project: one project's facts stay home.
		op.Scope = own
		return fmt.Sprintf("a %s memory holds one project's facts; kept in the %s store, not the user's", op.Type, own)
	case op.Scope == memory.ScopeTeam && !slices.Contains(v.team, op.Type):
		op.Scope = own
		return fmt.Sprintf("the team takes no %s memories (store.team.types); kept in the %s store", op.Type, own)
	}
	return ""
}

// shorten cuts s to at most n characters. It ends at the last whole sentence or clause that fits
// ("…; CI rejects unlinted code" goes, "Always run make lint before committing." stays) when that
// keeps more than half of n: the index line then says one whole thing. Otherwise it cuts at a word
// and ends with "…". The topic file's body keeps the whole text either way.
func shorten(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	cut := string(r[:n-1])
	if i := lastClauseEnd(string(r[:n])); i > len(cut)/2 {
		end := "."
		if s[i] >= utf8.RuneSelf { // 。 or ；
			end = "。"
		}
		return strings.TrimRight(s[:i], " ,;:-—") + end
	}
	if next := r[n-1]; next != ' ' {
		if i := strings.LastIndexByte(cut, ' '); i > len(cut)/2 {
			cut = cut[:i] // not mid-word
		}
	}
	return strings.TrimRight(cut, " ,;:-—") + "…"
}

// clauseEnds end a sentence or a clause that stands on its own.
var clauseEnds = []string{". ", "; ", " — ", "。", "；"}

// lastClauseEnd is the byte offset in s of the end of its last whole sentence or clause (before the
// mark), -1 when s has none.
func lastClauseEnd(s string) int {
	best := -1
	for _, mark := range clauseEnds {
		if i := strings.LastIndex(s, mark); i > best {
			best = i
		}
	}
	return best
}

// validator holds what one Validate call knows: the store's memories, the digest's sessions and
// what earlier accepted operations already wrote or retired.
type validator struct {
	lim      memory.Limits
	redactor *redact.Redactor
	scopes   []memory.Scope // this store's first
	team     []memory.Type  // the types the team scope takes
	existing map[string]Memory
	names    []string // of existing, sorted
	keys     []string // slugKey of each of names
	sessions map[string]bool
	written  map[string]bool
	retired  map[string]bool
}

func newValidator(req Request, lim memory.Limits, r *redact.Redactor) *validator {
	lim = lim.OrDefaults()
	if r == nil {
		r, _ = redact.New(nil) // cannot fail without extra patterns
	}
	v := &validator{
		lim:      lim,
		redactor: r,
		scopes:   req.AllScopes(),
		team:     req.TeamTypes,
		existing: make(map[string]Memory, len(req.Memories)),
		sessions: make(map[string]bool, len(req.Sessions)),
		written:  map[string]bool{},
		retired:  map[string]bool{},
	}
	for _, m := range req.Memories {
		v.existing[m.Name] = m
	}
	v.names = slices.Sorted(maps.Keys(v.existing))
	v.keys = make([]string, len(v.names))
	for i, n := range v.names {
		v.keys[i] = slugKey(n)
	}
	for _, s := range req.Sessions {
		v.sessions[s.ID] = true
	}
	return v
}

// normalize trims the operation's text and names and removes repeats from its lists (names are
// resolved and the lists made unique again by resolveNames; a memory listed as merged into itself
// is just being updated, so it leaves the list there).
func normalize(op Operation) Operation {
	op.Action = Action(strings.ToLower(strings.TrimSpace(string(op.Action))))
	op.Name = strings.TrimSpace(op.Name)
	op.MergedFrom = uniq(op.MergedFrom, "")
	op.Supersedes = uniq(op.Supersedes, "")
	op.Type = memory.Type(strings.ToLower(strings.TrimSpace(string(op.Type))))
	op.Scope = memory.Scope(strings.ToLower(strings.TrimSpace(string(op.Scope))))
	// The model's text enters the store here: no NUL or terminal control byte gets past.
	op.Description = sanitize.Line(op.Description)
	op.Body = strings.TrimLeft(strings.TrimRight(sanitize.Text(op.Body), " \t\r\n"), "\r\n")
	op.Reason = sanitize.Line(op.Reason)
	op.Evidence = uniq(op.Evidence, "")
	return op
}

// normalized says which of op's words normalize changed (an action or type in capitals or with
// spaces around): mended, and said, like every other repair.
func normalized(raw, op Operation) []string {
	var fixes []string
	for _, w := range []struct{ field, was, is string }{
		{"action", string(raw.Action), string(op.Action)},
		{"type", string(raw.Type), string(op.Type)},
		{"scope", string(raw.Scope), string(op.Scope)},
	} {
		if w.was != w.is {
			fixes = append(fixes, fmt.Sprintf("%s %.20q read as %q", w.field, w.was, w.is))
		}
	}
	return fixes
}

// pathLike reports whether a name reaches for a path ("../x", "a/b", ".hidden"): it is never
// slugged nor resolved, but refused and reported.
func pathLike(name string) bool {
	return strings.ContainsAny(name, "/\\") || strings.Contains(name, "..") || strings.HasPrefix(name, ".")
}

// slugged turns a name a model wrote loosely ("Deploy_With Deploy", "deploy-rule.md") into the
// slug it meant. A name that reaches for a path ("../x", "a/b", ".hidden") stays as it is, to be
// refused and reported.
func slugged(name string) string {
	stem := strings.TrimSuffix(name, ".md")
	if pathLike(name) || len(stem) > slug.MaxLen {
		return name // refused by check, never cut to fit: a cut name could land on another memory
	}
	if s := slug.Make(stem); s != "" {
		return s
	}
	return name
}

// check returns why op must be dropped, or "": ambiguity (from resolveNames) when its name matches
// several memories. It may turn a create into an update.
func (v *validator) check(op *Operation, ambiguity string) string {
	if reason := v.secret(*op); reason != "" {
		return reason
	}
	if !slices.Contains(Actions, op.Action) {
		return fmt.Sprintf("unknown action %.20q", op.Action)
	}
	if ambiguity != "" {
		return ambiguity
	}
	if !slug.Valid(op.Name) && !v.writable(op.Name) || reserved(op.Name) {
		return fmt.Sprintf("invalid name %.80q", op.Name)
	}
	_, exists := v.existing[op.Name]
	if op.Action == Create && exists {
		op.Action = Update
	}
	if op.Action != Create && !exists {
		return fmt.Sprintf("%s of unknown memory %q", op.Action, op.Name)
	}
	if op.Action == Delete {
		return v.checkDelete(op)
	}
	if op.Action == Reinforce {
		return v.checkReinforce(op)
	}
	if v.existing[op.Name].Pinned {
		return fmt.Sprintf("pinned memory %q is never rewritten: a person fixed it (the proposed text is in this report)", op.Name)
	}
	if reason := v.checkContent(*op); reason != "" {
		return reason
	}
	if reason := v.checkScope(*op); reason != "" {
		return reason
	}
	if reason := v.checkRetirements(*op); reason != "" {
		return reason
	}
	return v.conflict(op.Name, "written")
}

// writable reports whether name, not a slug, is an existing memory's that its file may keep: a
// hand-written file name ("OrdersDB", "Orders DB") is rewritten where it is, but not one that a
// fresh file could not be given (a control byte, white space at an end, a path), nor one the
// request carried redacted (the file has another name: writing this one would add a file).
func (v *validator) writable(name string) bool {
	_, ok := v.existing[name]
	return ok && name != "" && sanitize.Line(name) == name && !pathLike(name) && !strings.Contains(name, strings.TrimSuffix(redact.Mark(""), "]"))
}

// reserved reports whether name is one no memory may have, in any case: a case-insensitive file
// system would take "Memory.md" for MEMORY.md.
func reserved(name string) bool {
	return slices.ContainsFunc(reservedNames, func(r string) bool { return strings.EqualFold(r, name) })
}

// secret names the first secret found in the operation's stored text, never the secret itself.
func (v *validator) secret(op Operation) string {
	fields := []struct{ label, text string }{
		{"name", op.Name},
		{"description", op.Description},
		{"body", op.Body},
		{"merged_from", strings.Join(op.MergedFrom, "\n")},
		{"supersedes", strings.Join(op.Supersedes, "\n")},
	}
	for _, f := range fields {
		if found := v.redactor.Find(f.text); len(found) > 0 {
			return fmt.Sprintf("secret (%s) in %s", found[0].Kind, f.label)
		}
	}
	return ""
}

func (v *validator) checkDelete(op *Operation) string {
	if v.existing[op.Name].Pinned {
		return fmt.Sprintf("pinned memory %q cannot be deleted", op.Name)
	}
	if len(op.MergedFrom) > 0 || len(op.Supersedes) > 0 {
		return "delete cannot merge or supersede other memories"
	}
	op.Type, op.Description, op.Body = "", "", ""
	return v.conflict(op.Name, "retired")
}

func (v *validator) checkContent(op Operation) string {
	switch {
	case !op.Type.Valid():
		return fmt.Sprintf("invalid type %.20q", op.Type)
	case op.Description == "":
		return "empty description"
	case utf8.RuneCountInString(op.Description) > v.lim.DescriptionMax:
		return fmt.Sprintf("description is %d characters, limit %d",
			utf8.RuneCountInString(op.Description), v.lim.DescriptionMax)
	case op.Body == "":
		return "empty body"
	case len(op.Body) > v.lim.MemoryMaxBytes:
		return fmt.Sprintf("body is %d bytes, limit %d", len(op.Body), v.lim.MemoryMaxBytes)
	}
	return ""
}

// checkScope keeps the user's and the team's stores to what they are for: the project store is
// where anything may stay, but a memory the user store or the team's cannot hold has no place
// to go from their passes, so it is refused (its material is offered again) rather than kept.
func (v *validator) checkScope(op Operation) string {
	switch own := v.scopes[0]; {
	case own == memory.ScopeProject:
		return ""
	case op.Scope != own:
		return fmt.Sprintf("the %s store's pass writes only %s-scope memories, not %q", own, own, op.Scope)
	case own == memory.ScopeUser && op.Type != memory.User && op.Type != memory.Feedback:
		return fmt.Sprintf("the user store holds no %s memories: they are one project's facts", op.Type)
	case own == memory.ScopeTeam && !slices.Contains(v.team, op.Type):
		return fmt.Sprintf("the team store takes no %s memories (store.team.types)", op.Type)
	}
	return ""
}

// checkReinforce checks a reinforcement: an existing, unpinned memory that a session confirms;
// only its sources and date move, so every other field is cleared.
func (v *validator) checkReinforce(op *Operation) string {
	switch {
	case v.existing[op.Name].Pinned:
		return fmt.Sprintf("pinned memory %q is never rewritten, not even its sources", op.Name)
	case len(op.MergedFrom) > 0 || len(op.Supersedes) > 0:
		return "reinforce cannot merge or supersede other memories"
	case len(v.evidence(op.Evidence)) == 0:
		return "reinforce names no session of the digest as evidence"
	}
	op.Type, op.Description, op.Body = "", "", ""
	return v.conflict(op.Name, "written")
}

// checkRetirements checks the memories that op merges or supersedes.
func (v *validator) checkRetirements(op Operation) string {
	for _, list := range []struct {
		verb  string
		names []string
	}{{"merge", op.MergedFrom}, {"supersede", op.Supersedes}} {
		for _, name := range list.names {
			m, ok := v.existing[name]
			switch {
			case !ok:
				return fmt.Sprintf("cannot %s unknown memory %.80q", list.verb, name)
			case m.Pinned:
				return fmt.Sprintf("cannot %s pinned memory %q", list.verb, name)
			case list.verb == "supersede" && slices.Contains(op.MergedFrom, name):
				return fmt.Sprintf("%q both merged and superseded", name)
			}
			if reason := v.conflict(name, "retired"); reason != "" {
				return reason
			}
		}
	}
	return ""
}

// conflict says whether an earlier accepted operation already wrote or retired name, which makes
// writing (what == "written") or retiring it now contradictory.
func (v *validator) conflict(name, what string) string {
	switch {
	case v.retired[name]:
		return fmt.Sprintf("%q already retired by an earlier operation", name)
	case v.written[name] && what == "written":
		return fmt.Sprintf("%q already written by an earlier operation", name)
	case v.written[name]:
		return fmt.Sprintf("%q updated by an earlier operation, cannot be retired", name)
	}
	return ""
}

// accept records what an accepted operation writes and retires.
func (v *validator) accept(op Operation) {
	if op.Action == Delete {
		v.retired[op.Name] = true
		return
	}
	v.written[op.Name] = true
	for _, n := range op.MergedFrom {
		v.retired[n] = true
	}
	for _, n := range op.Supersedes {
		v.retired[n] = true
	}
}

// evidence keeps the session ids that the digest holds.
func (v *validator) evidence(ids []string) []string {
	out := []string{}
	for _, id := range ids {
		if v.sessions[id] {
			out = append(out, id)
		}
	}
	return out
}

// scrub redacts every text field of a rejected operation.
func (v *validator) scrub(op Operation) Operation {
	red := func(s string) string {
		out, _ := v.redactor.Redact(s)
		return out
	}
	op.Name, op.Type = red(op.Name), memory.Type(red(string(op.Type)))
	op.Description, op.Body, op.Reason = red(op.Description), red(op.Body), red(op.Reason)
	for _, list := range [][]string{op.MergedFrom, op.Supersedes, op.Evidence} {
		for i := range list {
			list[i] = red(list[i])
		}
	}
	return op
}

// uniq returns list without empty strings, repeats and skip, in order; never nil.
func uniq(list []string, skip string) []string {
	out := []string{}
	for _, s := range list {
		s = strings.TrimSpace(s)
		if s != "" && s != skip && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}
