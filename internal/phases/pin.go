package phases

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/dreamd/dreamd/internal/store"
)

// ErrNoMemory is the error of a pin naming no memory of the store.
var ErrNoMemory = fmt.Errorf("no such memory")

// Pin pins (or unpins) the memory called name in the store of paths, under the store's lock, as
// one journaled run of its own: `dreamd history` lists it and `dreamd rollback` undoes it. A
// pinned memory is never rewritten or retired by a pass — the answer to a lesson the agent keeps
// being taught again. Pinning what is pinned already changes nothing and returns a nil plan.
func Pin(paths store.Paths, name string, pinned bool, now time.Time) (*Plan, error) {
	o, err := Orient(paths, false)
	if err != nil {
		return nil, err
	}
	defer o.Release()
	var m *store.Memory
	for _, c := range o.Store.Memories {
		if c.Name == name {
			m = c
		}
	}
	switch {
	case m == nil:
		return nil, fmt.Errorf("%w %q in %s", ErrNoMemory, name, paths.Store)
	case m.Pinned == pinned:
		return nil, nil
	case m.Verbatim || m.Link:
		return nil, fmt.Errorf("%s.md is not a file dreamd can write back as it was written (its front matter, or a link): edit it by hand", name)
	}
	next := *m
	next.Pinned, next.HasFrontMatter, next.Raw = pinned, true, nil
	verb := "pinned"
	if !pinned {
		verb = "unpinned"
	}
	p := &Plan{RunID: NewRunID(now), Created: now.UTC(), Store: paths.Store, State: paths.State, Consolidator: "dreamd pin",
		Summary: fmt.Sprintf("%s %s by hand", verb, name),
		Changes: []store.Change{{Name: name + ".md", Old: m.Raw, New: next.Render()}}}
	meta, _ := json.Marshal(HistoryMeta{Summary: p.Summary, Consolidator: p.Consolidator})
	if err := store.Apply(paths, store.Txn{RunID: p.RunID, Time: p.Created, Changes: p.Changes, Meta: meta}); err != nil {
		return nil, err
	}
	return p, nil
}
