package daemon

import (
	"context"
	"log/slog"

	"github.com/robfig/cron/v3"
)

// cronLogger routes robfig/cron's logging into slog. Cron reports every wake
// and run at Info; those are Debug here. Skips and panics stay visible.
type cronLogger struct{ log *slog.Logger }

var _ cron.Logger = cronLogger{}

func (l cronLogger) Info(msg string, keysAndValues ...any) {
	if msg == "skip" {
		l.log.Info("check skipped: the previous one is still running")
		return
	}
	l.log.Log(context.Background(), slog.LevelDebug, "cron "+msg, keysAndValues...)
}

func (l cronLogger) Error(err error, msg string, keysAndValues ...any) {
	if msg == "panic" {
		msg = "check panicked"
	}
	l.log.Error(msg, append([]any{"err", err}, keysAndValues...)...)
}
