//go:build unix

package phases

import (
	"context"
	"os"
	"syscall"
	"testing"
)

// TestTranscriptReplacedByAFIFOIsSkipped: a transcript replaced by a FIFO after it was listed is
// skipped with a note, never opened for reading (which would block) nor failing the store.
func TestTranscriptReplacedByAFIFOIsSkipped(t *testing.T) {
	f := newFixture(t, nil)
	path := f.session("s1", "/proj", "Remember that fixtures live in testdata/golden.")
	f.session("s2", "/proj", "Remember that deploys go through deploy.sh.")
	targets, _, err := Discover(f.env)
	if err != nil || len(targets) != 1 {
		t.Fatalf("Discover: %v, %d targets", err, len(targets))
	}
	pending, err := Pending(targets[0], nil)
	if err != nil || len(pending) != 2 {
		t.Fatalf("Pending: %d, %v", len(pending), err)
	}
	os.Remove(path)
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skip("no FIFO:", err)
	}
	m, err := Read(context.Background(), f.env, f.storeDir(), pending, 100000)
	if err != nil {
		t.Fatalf("Read with a FIFO for a transcript: %v", err)
	}
	if g := m.Digest(f.env.Redactor, 100000); len(g.Read) != 1 || g.Read[0].Session != "s2" {
		t.Errorf("read %+v; want s2 alone", g.Read)
	}
}
