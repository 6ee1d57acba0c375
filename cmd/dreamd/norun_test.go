package main

import (
	"strings"
	"testing"

	"github.com/dreamd/dreamd/internal/store"
)

// TestNoRunErrorSameSecond: a run pruned in favour of one made in the same second is told as
// pruned, though its random suffix may sort after the kept one's.
func TestNoRunErrorSameSecond(t *testing.T) {
	kept := []historyRow{{HistoryEntry: store.HistoryEntry{RunID: "20261126T232000Z-111111"}}}
	for _, tc := range []struct {
		id, want string
	}{
		{"20261126T232000Z-ffffff", "older than the oldest run kept"},
		{"20261126T231959Z-000000", "older than the oldest run kept"},
		{"20261126T232001Z-000000", "among the 1 kept"},
		{"not-a-run", "among the 1 kept"},
	} {
		err := (&globalOptions{}).noRunError(tc.id, "state", "", kept)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("noRunError(%q) = %v, want it to say %q", tc.id, err, tc.want)
		}
	}
}
