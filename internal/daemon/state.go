package daemon

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/google/renameio/v2"
)

// State is what the daemon reports about itself, in memory (Status) and in
// its state file (daemon.json, read by `dreamd status` via ReadState).
type State struct {
	PID         int       `json:"pid"`
	Started     time.Time `json:"started,omitzero"`
	LastCheck   time.Time `json:"last_check,omitzero"`   // start of the last completed check
	LastSuccess time.Time `json:"last_success,omitzero"` // end of the last check whose pass returned nil
	NextCheck   time.Time `json:"next_check,omitzero"`   // zero when the daemon is not running
	LastError   string    `json:"last_error,omitempty"`
	Running     bool      `json:"running"`  // Run is scheduling; stays true in the file of a killed daemon, so check PID
	Checking    bool      `json:"checking"` // a pass is in flight
}

// ReadState reads a daemon state file. A missing file yields an error that
// matches fs.ErrNotExist: the daemon never ran.
func ReadState(path string) (State, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return State{}, err
	}
	s, err := decodeState(data)
	if err != nil {
		return State{}, fmt.Errorf("daemon state %s: %w", path, err)
	}
	return s, nil
}

func decodeState(data []byte) (State, error) {
	var s State
	err := json.Unmarshal(data, &s)
	return s, err
}

// writeState replaces the state file atomically, so a reader or a crash
// never sees half of it.
func writeState(path string, s State) error {
	data, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	return renameio.WriteFile(path, append(data, '\n'), 0o600)
}
