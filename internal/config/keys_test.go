package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestConfigErrorsNameFileAndFix: a config error names the file to correct and, for an unknown
// key, the key it is a typo of or the keys that belong there; it cites no file of the source tree.
func TestConfigErrorsNameFileAndFix(t *testing.T) {
	for _, tt := range []struct {
		name, body string
		want       []string
	}{
		{"typo at the top", "shedule: '@hourly'\n", []string{"shedule: unknown key (did you mean schedule?)"}},
		{"typo in a section", "llm: {modle: gpt-5}\n", []string{"llm.modle: unknown key (did you mean llm.model?)"}},
		{"typo in a list", "sources: [{kind: claude, path: /x, projet: /p}]\n", []string{"sources[0].projet: unknown key (did you mean sources.project?)"}},
		{"no near key", "llm: {colour: blue}\n", []string{"llm.colour: unknown key (the keys under llm are ", "model"}},
		{"bad value", "log: {level: loud}\n", []string{`log.level: "loud" is not`}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := isolate(t)
			file := writeFile(t, dir, tt.body)
			_, err := Load(file, nil)
			if err == nil {
				t.Fatal("loaded")
			}
			msg := err.Error()
			if !strings.HasPrefix(msg, "config "+file+": ") {
				t.Errorf("%q does not start by naming the file", msg)
			}
			for _, w := range tt.want {
				if !strings.Contains(msg, w) {
					t.Errorf("%q lacks %q", msg, w)
				}
			}
			if strings.Contains(msg, "example.yaml") {
				t.Errorf("%q cites a file of the source tree", msg)
			}
		})
	}
}

// TestStateDirNotWritable: a state_dir the user cannot write (or whose parent they cannot write
// when it does not exist yet) is a config error naming the key, exit 2 for the commands, so a
// service restarted on failure stops instead of failing every 30 s.
func TestStateDirNotWritable(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root writes anywhere")
	}
	dir := isolate(t)
	locked := filepath.Join(dir, "locked")
	if err := os.Mkdir(locked, 0o500); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(locked, 0o700) })
	for _, tt := range []struct{ stateDir, want string }{
		{locked, "is not writable (permission denied)"},
		{filepath.Join(locked, "dreamd"), "cannot be made: " + locked + " is not writable"},
	} {
		file := writeFile(t, dir, "state_dir: "+tt.stateDir+"\n")
		_, err := Load(file, nil)
		var ce *Error
		if err == nil || !errorsAs(err, &ce) || ce.Key != "state_dir" || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("state_dir %s: %v, want a state_dir error with %q", tt.stateDir, err, tt.want)
		}
	}
}

func errorsAs(err error, target **Error) bool {
	e, ok := err.(*Error)
	if ok {
		*target = e
	}
	return ok
}
