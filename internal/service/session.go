package service

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/google/renameio/v2"
)

// session carries one install or uninstall: it performs and records each
// action, and echoes commands and their output to Options.Out.
type session struct {
	o   Options
	res Result
}

// write replaces path atomically and reports whether its content changed
// (false for a new file).
func (s *session) write(path string, data []byte) (changed bool, err error) {
	old, err := os.ReadFile(path)
	existed := err == nil
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return false, err
	}
	if err := renameio.WriteFile(path, data, 0o644); err != nil {
		return false, err
	}
	s.res.Written = append(s.res.Written, path)
	return existed && !bytes.Equal(old, data), nil
}

// remove deletes path; a missing file is not an error.
func (s *session) remove(path string) error {
	err := os.Remove(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	s.res.Removed = append(s.res.Removed, path)
	return nil
}

// run executes and records a command; a failure carries its output.
func (s *session) run(args ...string) error {
	return s.runShowing(nil, args...)
}

// runShowing is run, echoing the command's output unless harmless says it is only noise (systemd's
// "Failed to reset failed state … not loaded" after an install that worked).
func (s *session) runShowing(harmless func(out []byte, err error) bool, args ...string) error {
	s.res.Commands = append(s.res.Commands, args)
	out, err := s.o.Run(args[0], args[1:]...)
	shown := out
	if err != nil && harmless != nil && harmless(out, err) {
		shown = nil
	}
	if s.o.Out != nil {
		fmt.Fprintf(s.o.Out, "$ %s\n%s", strings.Join(args, " "), shown)
		if len(shown) > 0 && shown[len(shown)-1] != '\n' {
			fmt.Fprintln(s.o.Out)
		}
	}
	if err != nil {
		return &commandError{args: args, out: out, err: err}
	}
	return nil
}

// probe runs a query command for its exit status only; it is recorded but
// not echoed (launchctl print is pages long when the answer is yes).
func (s *session) probe(args ...string) bool {
	s.res.Commands = append(s.res.Commands, args)
	_, err := s.o.Run(args[0], args[1:]...)
	return err == nil
}

// stop runs a stop command, tolerating "not loaded" failures.
func (s *session) stop(args ...string) error {
	err := s.runShowing(notLoaded, args...)
	var cerr *commandError
	if errors.As(err, &cerr) && notLoaded(cerr.out, cerr.err) {
		return nil
	}
	return err
}

func (s *session) hint(format string, args ...any) {
	s.res.Hints = append(s.res.Hints, fmt.Sprintf(format, args...))
}

// finish drops the hints of a failed run: they describe a finished install.
func (s *session) finish(err error) (Result, error) {
	if err != nil {
		s.res.Hints = nil
	}
	return s.res, err
}

type commandError struct {
	args []string
	out  []byte
	err  error
}

func (e *commandError) Error() string {
	msg := fmt.Sprintf("%s: %v", strings.Join(e.args, " "), e.err)
	if out := strings.TrimSpace(string(e.out)); out != "" {
		msg += ": " + out
	}
	return msg
}

func (e *commandError) Unwrap() error { return e.err }

func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}
