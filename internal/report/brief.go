package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/dreamd/dreamd/internal/phases"
	"github.com/dreamd/dreamd/internal/sanitize"
)

// Brief writes one line per store whose pass did something or needs the person (applied, left a
// plan for review, refused, failed, busy) and nothing for the rest: what a timer's hourly pass
// leaves in the journal, where the full report would be mostly "nothing new".
func Brief(w io.Writer, outcomes []phases.Outcome, opt Options) error {
	var b strings.Builder
	for _, o := range outcomes {
		if line := briefLine(o, opt); line != "" {
			fmt.Fprintf(&b, "store %s: %s\n", sanitize.Line(o.Store), sanitize.Line(line))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func briefLine(o phases.Outcome, opt Options) string {
	switch {
	case o.Err != nil:
		return result(o, opt)
	case o.Result == phases.Applied && o.Plan != nil:
		c := o.Plan.Counts
		return fmt.Sprintf("applied run %s: %d sessions, %d created, %d updated, %d merged, %d retired (undo with `%s`)",
			o.Plan.RunID, c.Sessions, c.Created, c.Updated, c.Merged, c.Retired, opt.hint("rollback", o.Plan.RunID))
	case o.Result == phases.PendingReview:
		return result(o, opt)
	}
	return "" // nothing new, gated, parked (said when it was parked), a dry run
}
