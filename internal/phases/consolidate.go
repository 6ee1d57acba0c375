package phases

import (
	"context"

	"github.com/dreamd/dreamd/internal/extract"
	"github.com/dreamd/dreamd/internal/store"
)

// Consolidated is the consolidator's answer after validation.
type Consolidated struct {
	Summary    string
	Operations []extract.Operation // valid, in the consolidator's order
	Rejected   []extract.Rejected  // dropped, each with why
	Usage      extract.Usage
	Model      string
	Offline    bool
}

// Consolidate makes the store's one consolidation call and validates every operation it returns.
// A response that is not the contract's shape fails the pass; nothing has been written.
func Consolidate(ctx context.Context, env *Env, s *store.Store, sessions []extract.Session) (Consolidated, error) {
	req := Request(env, s, sessions)
	res, err := env.Consolidator.Consolidate(ctx, req)
	if err != nil {
		return Consolidated{}, err
	}
	lim := extract.Limits{DescriptionMax: env.Limits.DescriptionMax, BodyMax: env.Limits.MemoryMaxBytes}
	ops, rejected := extract.Validate(res.Response, req, lim, env.Redactor)
	summary := res.Response.Summary
	if env.Redactor != nil {
		summary, _ = env.Redactor.Redact(summary)
	}
	return Consolidated{
		Summary:    summary,
		Operations: ops,
		Rejected:   rejected,
		Usage:      res.Usage,
		Model:      res.Model,
		Offline:    res.Offline,
	}, nil
}

// Request is what the consolidator sees: today, every memory of the store, the digest.
func Request(env *Env, s *store.Store, sessions []extract.Session) extract.Request {
	mems := make([]extract.Memory, 0, len(s.Memories))
	for _, m := range s.Memories {
		mems = append(mems, extract.Memory{
			Name:        m.Name,
			Type:        memoryType(m),
			Description: describe(m),
			Body:        m.Body,
			Pinned:      m.Pinned,
			Updated:     m.Updated,
		})
	}
	return extract.Request{
		Today:          env.now(),
		Memories:       mems,
		Sessions:       sessions,
		MaxInputTokens: env.MaxInputTokens,
	}
}
