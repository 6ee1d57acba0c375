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
// terminal uses tint, in colour unless NO_COLOR says otherwise. Under
// journald (JOURNAL_STREAM is set) text lines leave out the timestamp, since
// the journal stamps every line itself.
func LogHandler(w io.Writer, level slog.Level, format string) slog.Handler {
	return logHandler(w, level, format, IsTerminal(w))
}

// logHandler is LogHandler with the terminal test done, so tests can be one.
func logHandler(w io.Writer, level slog.Level, format string, terminal bool) slog.Handler {
	journald := os.Getenv("JOURNAL_STREAM") != ""
	switch {
	case format == "json":
		return slog.NewJSONHandler(w, &slog.HandlerOptions{Level: level})
	case journald:
		return slog.NewTextHandler(w, &slog.HandlerOptions{Level: level, ReplaceAttr: dropTime})
	case format == "auto" && terminal:
		return tint.NewTextHandler(w, &tint.Options{Level: level, TimeFormat: time.TimeOnly, NoColor: noColor()})
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

// noColor reports whether the user asked for no colour: NO_COLOR set and
// not empty (https://no-color.org).
func noColor() bool { return os.Getenv("NO_COLOR") != "" }

// IsTerminal reports whether w is a terminal: for tint's colours here, and
// for progress output in the commands. /dev/null is a character device but
// no terminal, which a mode check alone would miss.
func IsTerminal(w io.Writer) bool {
	f, ok := w.(interface{ Fd() uintptr })
	return ok && (isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd()))
}
