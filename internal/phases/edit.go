package phases

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/dreamd/dreamd/internal/extract"
	"github.com/dreamd/dreamd/internal/memory"
	"github.com/dreamd/dreamd/internal/store"
)

// edit.go lets a person rewrite an operation of a plan before it is applied (`dreamd review`'s e,
// `dreamd apply --edit`): the memory it creates or updates (a merge's merged text included) takes
// the person's type, description and body. The edited operation is then what the model's was: it
// goes through extract.Validate with the plan's request (schema, caps, secrets, pins, scopes),
// then Decide and Render with the others (the guard, the index caps), and the applied plan
// records which operations were edited; verifyPlan checks their files say exactly their text.

// Edit is a person's text for the operation writing Name. A type or description left empty keeps
// the plan's; the body is the person's as it is.
type Edit struct {
	Name        string
	Type        memory.Type
	Description string
	Body        string
}

// ErrEditRefused marks an edit the validator refuses (a secret pasted in, an empty description, a
// body over the cap…): the message says why, and the person may edit again or reject.
var ErrEditRefused = fmt.Errorf("%w: the edit is refused", ErrRefused)

// ErrBadEdit marks an edit the selection cannot take: of an operation it rejects, of one with no
// text, a second of one memory. That is the command line's mistake, not a safety guard's verdict
// (dreamd apply exits with a usage error, not ErrRefused's code).
var ErrBadEdit = errors.New("the edit does not fit the selection")

// Editable reports whether op has a text a person may edit: a create or an update (a merge is an
// update); a deletion or a reinforcement writes no text of its own.
func Editable(op extract.Operation) bool {
	return op.Action == extract.Create || op.Action == extract.Update
}

// EditText is the text a person edits for op: its front matter (name, type, description) and body,
// after comment lines saying what to do. ParseEdit reads it back.
func EditText(op extract.Operation) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# dreamd: edit the memory %s will hold (%s), save and quit.\n", op.Name, op.Action)
	b.WriteString("# Keep the name. type is one of " + strings.Join(typeNames(), ", ") + "; the description is one line.\n")
	b.WriteString("# Lines starting with # above the first --- are ignored; the body follows the second ---.\n")
	fmt.Fprintf(&b, "---\nname: %s\ntype: %s\ndescription: %s\n---\n", op.Name, op.Type, op.Description)
	b.WriteString(strings.TrimRight(op.Body, "\n") + "\n")
	return b.String()
}

func typeNames() []string {
	var out []string
	for _, t := range memory.Types {
		out = append(out, string(t))
	}
	return out
}

// ParseEdit reads an edited memory (EditText's layout): comment and blank lines, a front matter
// between --- lines holding name, type and description (one line each, no other key), then the
// body. It says what is wrong with a text that is not such a memory.
func ParseEdit(text string) (Edit, error) {
	text = strings.ReplaceAll(strings.TrimPrefix(text, "\ufeff"), "\r\n", "\n")
	lines := strings.SplitAfter(text, "\n")
	i := 0
	for ; i < len(lines); i++ {
		l := strings.TrimSpace(lines[i])
		if l == "---" {
			break
		}
		if l != "" && !strings.HasPrefix(l, "#") {
			return Edit{}, fmt.Errorf("line %d: expected the front matter's opening ---, found %.40q", i+1, l)
		}
	}
	if i == len(lines) {
		return Edit{}, errors.New("no front matter: the memory starts with a --- line")
	}
	var e Edit
	seen := map[string]bool{}
	for i++; ; i++ {
		if i == len(lines) {
			return Edit{}, errors.New("the front matter has no closing --- line")
		}
		l := strings.TrimSpace(lines[i])
		if l == "---" {
			break
		}
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		key, value, ok := strings.Cut(l, ":")
		key, value = strings.TrimSpace(key), strings.TrimSpace(value)
		if !ok {
			return Edit{}, fmt.Errorf("line %d: expected key: value, found %.40q", i+1, l)
		}
		if seen[key] {
			return Edit{}, fmt.Errorf("line %d: %s given twice", i+1, key)
		}
		seen[key] = true
		switch key {
		case "name":
			e.Name = value
		case "type":
			e.Type = memory.Type(value)
		case "description":
			e.Description = value
		default:
			return Edit{}, fmt.Errorf("line %d: unknown key %.40q (name, type and description only)", i+1, key)
		}
	}
	e.Body = strings.TrimSpace(strings.Join(lines[i+1:], ""))
	return e, nil
}

// editOps gives the operations of ops that edits rewrite the person's text, each validated as the
// model's is against the store s and the plan's sessions, and what the validator mended in them
// (a description shortened…). It refuses an edit the validator rejects and one renaming its
// memory (ErrEditRefused), and one of an operation with no text (ErrBadEdit).
func editOps(env *Env, s *store.Store, p *Plan, ops []extract.Operation, edits []Edit) ([]extract.Operation, []extract.Repaired, error) {
	out := slices.Clone(ops)
	var mended []extract.Repaired
	for i, op := range out {
		j := slices.IndexFunc(edits, func(e Edit) bool { return e.Name == op.Name })
		if j < 0 {
			continue
		}
		e := edits[j]
		if !Editable(op) {
			return nil, nil, fmt.Errorf("%w: %s %s writes no text to edit; accept or reject it", ErrBadEdit, op.Action, op.Name)
		}
		edited := op
		edited.Type, edited.Description, edited.Body = cmp.Or(e.Type, op.Type), cmp.Or(e.Description, op.Description), e.Body
		req, _ := Request(env, s, sessionsOf(p), nil)
		v := extract.Validate(extract.Response{Operations: []extract.Operation{edited}}, req, env.Limits, env.Redactor)
		if len(v.Rejected) > 0 {
			return nil, nil, fmt.Errorf("%w: %s: %s; edit it again or reject it", ErrEditRefused, op.Name, v.Rejected[0].Reason)
		}
		if len(v.Operations) != 1 || v.Operations[0].Name != op.Name || v.Operations[0].Scope != op.Scope {
			return nil, nil, fmt.Errorf("%w: %s: the edited operation is no longer the plan's (%s); edit it again or reject it", ErrEditRefused, op.Name, "its memory or scope changed")
		}
		out[i] = v.Operations[0]
		for _, r := range v.Repaired {
			mended = append(mended, extract.Repaired{Name: r.Name, What: "in the edit: " + r.What})
		}
	}
	return out, mended, nil
}

// checkEdits refuses edits a selection cannot take: one of no operation of p, one the selection
// also rejects, one renaming its memory, two of one memory.
func (s Selection) checkEdits(p *Plan) error {
	names := OperationNames(p)
	var seen []string
	for _, e := range s.Edits {
		switch {
		case !slices.Contains(names, e.Name):
			return fmt.Errorf("%w on %q to edit; its operations are: %s", ErrNoOperation, e.Name, strings.Join(names, ", "))
		case slices.Contains(seen, e.Name):
			return fmt.Errorf("%w: %s is edited twice", ErrBadEdit, e.Name)
		case !s.accepts(e.Name):
			return fmt.Errorf("%w: %s is both edited and rejected (an edit accepts its operation: name it in --only too, not in --skip)", ErrBadEdit, e.Name)
		}
		seen = append(seen, e.Name)
	}
	return nil
}

// editedNames are the names s edits, sorted.
func (s Selection) editedNames() []string {
	var out []string
	for _, e := range s.Edits {
		out = append(out, e.Name)
	}
	slices.Sort(out)
	return out
}

// checkEdited refuses a plan whose edited operations' files do not say exactly the operations'
// text (the description and body the validated edit gave): what the history's plan_mac signs as
// edited is what was written.
func checkEdited(p *Plan) error {
	for _, name := range p.Edited {
		i := slices.IndexFunc(p.Operations, func(op extract.Operation) bool { return op.Name == name })
		if i < 0 {
			continue // sent to another store: a note there, no file here
		}
		op := p.Operations[i]
		j := slices.IndexFunc(p.Changes, func(c store.Change) bool { return c.Name == name+".md" })
		if j < 0 || p.Changes[j].New == nil {
			return refuse("the edited %s writes no file", name)
		}
		m := store.ParseMemory(name, p.Changes[j].New)
		if m.Type != op.Type || m.Description != op.Description || strings.TrimSpace(m.Body) != strings.TrimSpace(op.Body) {
			return refuse("%s.md is not the text %s was edited to", name, name)
		}
	}
	return nil
}
