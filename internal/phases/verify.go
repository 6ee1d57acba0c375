package phases

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"github.com/dreamd/dreamd/internal/sanitize"
	"github.com/dreamd/dreamd/internal/slug"
	"github.com/dreamd/dreamd/internal/store"
)

// verifyPlan re-checks a saved plan against what a fresh pass would accept before anything is
// written (ApplyPlan has checked that its store is one the configuration routes to): every file it writes is a memory that
// validates (its name, its size, no control byte, no secret), every memory it retires is archived
// with the bytes it has now, and its index is exactly the one derived from the store it leaves.
// The signature already tells an edited plan; this holds even for a plan signed with a stolen key.
func verifyPlan(env *Env, o *Oriented, p *Plan) error {
	byName := make(map[string]*store.Memory, len(o.Store.Memories))
	for _, m := range o.Store.Memories {
		byName[m.Name+".md"] = m
	}
	var index []byte
	for _, ch := range p.Changes {
		if ch.Name == store.IndexFile {
			index = ch.New
			continue
		}
		stem, ok := strings.CutSuffix(ch.Name, ".md")
		if !ok || !slug.Valid(stem) && byName[ch.Name] == nil {
			return refuse("it writes %q, which is no memory file name", ch.Name)
		}
		if cur := byName[ch.Name]; !bytes.Equal(ch.Old, rawOf(cur)) {
			return refuse("its old %s is not the file in the store", ch.Name)
		}
		if ch.New == nil {
			delete(byName, ch.Name)
			continue
		}
		if reason := checkMemoryFile(env, stem, ch.New); reason != "" {
			return refuse("%s %s", ch.Name, reason)
		}
		byName[ch.Name] = store.ParseMemory(stem, ch.New)
	}
	for _, r := range p.Retired {
		i := slices.IndexFunc(o.Store.Memories, func(m *store.Memory) bool { return m.Name == r.Name })
		if i < 0 || !bytes.Equal(r.Content, o.Store.Memories[i].Raw) {
			return refuse("the archived copy of %s is not the file in the store", r.Name)
		}
	}
	next := make([]*store.Memory, 0, len(byName))
	for _, m := range byName {
		next = append(next, m)
	}
	slices.SortFunc(next, func(a, b *store.Memory) int { return strings.Compare(a.Name, b.Name) })
	if want := store.RenderIndexWithin(indexed(next, env.Redactor), env.Limits.IndexLineMax); index != nil && !bytes.Equal(index, want) {
		return refuse("its MEMORY.md is not the index of the memories it leaves")
	}
	return checkEdited(p)
}

// checkMemoryFile says why bytes cannot be a memory file dreamd writes, or "".
func checkMemoryFile(env *Env, stem string, data []byte) string {
	text := string(data)
	m := store.ParseMemory(stem, data)
	switch {
	case !sanitize.Clean(strings.ReplaceAll(text, "\r\n", "\n")):
		return "holds a NUL or control byte"
	case m.Name != stem:
		return fmt.Sprintf("names the memory %q", m.Name)
	case env.Limits.MemoryMaxBytes > 0 && len(m.Body) > env.Limits.MemoryMaxBytes:
		return fmt.Sprintf("has a body of %d bytes, limit %d", len(m.Body), env.Limits.MemoryMaxBytes)
	case env.Redactor != nil && len(env.Redactor.Find(text)) > 0:
		return fmt.Sprintf("holds a secret (%s)", env.Redactor.Find(text)[0].Kind)
	}
	return ""
}

// routed refuses a store the configuration does not send sessions to (a plan edited to write
// elsewhere).
func routed(env *Env, dir string) error {
	if env.StoreMode == Fixed && dir == env.StorePath || env.UserStore != "" && dir == env.UserStore {
		return nil
	}
	targets, _, err := Discover(env)
	if err != nil {
		return err
	}
	if slices.ContainsFunc(targets, func(t Target) bool { return t.Paths.Store == dir }) {
		return nil
	}
	return refuse("its store %s is not one this configuration consolidates", dir)
}

func rawOf(m *store.Memory) []byte {
	if m == nil {
		return nil
	}
	return m.Raw
}

func refuse(format string, args ...any) error {
	return fmt.Errorf("%w: the plan is refused: %s; nothing was written", ErrRefused, fmt.Sprintf(format, args...))
}
