package daemon

import (
	"bytes"
	"encoding/json"
	"io"
	"log/slog"
	"os"
	"strings"
	"testing"
)

func TestLogHandler(t *testing.T) {
	tests := []struct {
		name     string
		format   string
		journald bool
		check    func(t *testing.T, out string)
	}{
		{"json", "json", false, func(t *testing.T, out string) {
			var rec map[string]any
			if err := json.Unmarshal([]byte(out), &rec); err != nil {
				t.Fatalf("not JSON: %v\n%s", err, out)
			}
			if rec["msg"] != "hello" || rec["store"] != "s1" || rec["time"] == nil {
				t.Errorf("record = %v", rec)
			}
		}},
		{"text off a terminal", "text", false, func(t *testing.T, out string) {
			if !strings.HasPrefix(out, "time=") || !strings.Contains(out, "msg=hello store=s1") {
				t.Errorf("out = %q", out)
			}
		}},
		{"auto off a terminal is plain text", "auto", false, func(t *testing.T, out string) {
			if strings.Contains(out, "\x1b[") || !strings.Contains(out, "level=INFO msg=hello") {
				t.Errorf("out = %q", out)
			}
		}},
		{"journald drops the timestamp", "auto", true, func(t *testing.T, out string) {
			if out != "level=INFO msg=hello store=s1\n" {
				t.Errorf("out = %q", out)
			}
		}},
		{"journald keeps JSON whole", "json", true, func(t *testing.T, out string) {
			if !strings.Contains(out, `"time":`) {
				t.Errorf("out = %q", out)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.journald {
				t.Setenv("JOURNAL_STREAM", "8:12345")
			} else {
				t.Setenv("JOURNAL_STREAM", "")
			}
			var buf bytes.Buffer
			log := slog.New(LogHandler(&buf, slog.LevelInfo, tt.format))
			log.Debug("hidden")
			log.Info("hello", "store", "s1")
			tt.check(t, buf.String())
		})
	}
}

// TestLogHandlerOnATerminal: tint, in colour unless NO_COLOR is set and not empty (no-color.org).
func TestLogHandlerOnATerminal(t *testing.T) {
	tests := []struct {
		noColor string
		colour  bool
	}{
		{"", true},
		{"1", false},
		{"0", false}, // any value counts, even "0"
	}
	for _, tt := range tests {
		t.Run("NO_COLOR="+tt.noColor, func(t *testing.T) {
			t.Setenv("JOURNAL_STREAM", "")
			t.Setenv("NO_COLOR", tt.noColor)
			var buf bytes.Buffer
			slog.New(logHandler(&buf, slog.LevelInfo, "auto", true)).Info("hello", "store", "s1")
			out := buf.String()
			if got := strings.Contains(out, "\x1b["); got != tt.colour {
				t.Errorf("colour %v, want %v: %q", got, tt.colour, out)
			}
			if !strings.Contains(out, "INF") || !strings.Contains(out, "hello") || strings.Contains(out, "level=") {
				t.Errorf("not tint's format: %q", out)
			}
		})
	}
}

func TestIsTerminal(t *testing.T) {
	devNull, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer devNull.Close()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	for name, out := range map[string]io.Writer{"a buffer": &bytes.Buffer{}, "a pipe": w, os.DevNull: devNull} {
		if IsTerminal(out) {
			t.Errorf("%s is taken for a terminal", name)
		}
	}
}
