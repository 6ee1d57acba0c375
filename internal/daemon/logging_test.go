package daemon

import (
	"bytes"
	"encoding/json"
	"log/slog"
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
