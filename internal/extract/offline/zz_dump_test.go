package offline_test

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"sync"
	"testing"

	evalsuite "github.com/dreamd/dreamd/eval"
	"github.com/dreamd/dreamd/internal/eval"
	"github.com/dreamd/dreamd/internal/extract"
	"github.com/dreamd/dreamd/internal/extract/offline"
	"github.com/dreamd/dreamd/internal/phases"
	"github.com/dreamd/dreamd/internal/redact"
	"github.com/dreamd/dreamd/internal/store"
)

type dumper struct {
	mu  sync.Mutex
	out *strings.Builder
	in  extract.Consolidator
}

func (d *dumper) Consolidate(ctx context.Context, req extract.Request) (extract.Result, error) {
	d.mu.Lock()
	for _, s := range req.Sessions {
		fmt.Fprintf(d.out, "=== session %s %s %s\n", s.ID, s.Date.Format("2006-01-02"), s.Project)
		for _, t := range s.Turns {
			if t.Role == "user" {
				fmt.Fprintf(d.out, "--- %s\n%s\n", t.Role, t.Text)
			}
		}
	}
	for _, m := range req.Memories {
		fmt.Fprintf(d.out, "=== memory %s: %s\n", m.Name, m.Description)
	}
	res, err := d.in.Consolidate(ctx, req)
	for _, op := range res.Response.Operations {
		fmt.Fprintf(d.out, ">>> %s %s [%s] %s\n", op.Action, op.Name, op.Type, op.Description)
	}
	d.mu.Unlock()
	return res, err
}

func TestZZDump(t *testing.T) {
	if os.Getenv("DUMP") == "" {
		t.Skip()
	}
	fsys, _ := fs.Sub(evalsuite.FS, "suite")
	s, err := eval.LoadSuite(fsys)
	if err != nil {
		t.Fatal(err)
	}
	red, _ := redact.New(nil)
	for _, sc := range s.Scenarios {
		if !strings.Contains(os.Getenv("DUMP"), sc.Name[:2]) && os.Getenv("DUMP") != "all" {
			continue
		}
		var b strings.Builder
		d := &dumper{out: &b, in: offline.New()}
		env := &phases.Env{Limits: store.DefaultLimits, MaxRetireFraction: 0.25, MaxInputTokens: 100000,
			Consolidator: d, ConsolidatorName: "offline", Redactor: red}
		one := &eval.Suite{Scenarios: []*eval.Scenario{sc}}
		if _, err := eval.Run(context.Background(), one, eval.Options{Base: env, Jobs: 1}); err != nil {
			t.Fatal(err)
		}
		fmt.Printf("########## %s\n%s\n", sc.Name, b.String())
	}
}
