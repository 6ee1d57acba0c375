package daemon

import (
	"io"
	"log/slog"
	"os"
	"time"

	"github.com/lmittmann/tint"
	"github.com/mattn/go-isatty"
)

// LogHandler builds the handler behind `log.format`: json is slog's JSON;
// text and auto are plain slog text without colour, except that auto on a
// terminal uses tint. Under journald (JOURNAL_STREAM is set) text lines
// leave out the timestamp, since the journal stamps every line itself.
func LogHandler(w io.Writer, level slog.Level, format string) slog.Handler {
	journald := os.Getenv("JOURNAL_STREAM") != ""
	switch {
	case format == "json":
		return slog.NewJSONHandler(w, &slog.HandlerOptions{Level: level})
	case journald:
		return slog.NewTextHandler(w, &slog.HandlerOptions{Level: level, ReplaceAttr: dropTime})
	case format == "auto" && isTerminal(w):
		return tint.NewHandler(w, &tint.Options{Level: level, TimeFormat: time.TimeOnly})
	default:
		return slog.NewTextHandler(w, &slog.HandlerOptions{Level: level})
	}
}

func dropTime(groups []string, a slog.Attr) slog.Attr {
	if len(groups) == 0 && a.Key == slog.TimeKey {
		return slog.Attr{}
	}
	return a
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(interface{ Fd() uintptr })
	return ok && (isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd()))
}
