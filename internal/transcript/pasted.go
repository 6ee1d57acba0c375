package transcript

import (
	"fmt"
	"strings"

	"github.com/dreamd/dreamd/internal/lazyre"
)

// A person often pastes what a tool printed — a stack trace, a test run, a build log — into their
// message. Those lines are the tool's, not the person's words: each long run of them in a user
// turn stands as one labelled line, so neither a model nor the offline consolidator takes a log
// line ("ERROR: always retry the payment") for something the person said.

// minPastedLines is how many log lines in a row make a pasted log.
const minPastedLines = 6

// logLine matches a line a program printed: a time stamp, a level, a stack frame, a test or
// build tool's status line, a shell prompt with its command.
var logLine = lazyre.New(`(?i)^\s*(?:` +
	`\[?\d{4}-\d{2}-\d{2}[t ]\d{2}:\d{2}|\[?\d{2}:\d{2}:\d{2}[.,\]\s]|` + // time stamps
	`\[?(?:trace|debug|info|warn|warning|error|fatal|panic|critical)\]?[:\s]|` + // levels
	`at\s+[\w$.<>]+\s*\(|file\s+"[^"]+",\s+line\s+\d+|traceback\s+\(most recent call last\)|` + // stack frames
	`[\w./-]+\.(?:go|py|js|ts|tsx|rs|java|rb|c|cc|cpp|kt|swift|php):\d+|goroutine\s+\d+\s+\[|panic:|` +
	`---\s+(?:fail|pass|skip):|===\s+(?:run|pause|cont)|(?:ok|fail)\s+\S+\s+[\d.]+s|` + // go test
	`npm\s+(?:err!|warn)|error\[e\d+\]|warning:|error:|\d+\s+(?:passed|failed|errors?)\b|` +
	`\$\s+\S|>\s+\S+@\S+\s|#\d+\s+\d+\.\d+\s` + // a shell prompt, npm and docker build steps
	`)`)

// labelPasted replaces each run of at least minPastedLines log lines (blank lines inside a run
// allowed) with one line that says what it was: its length and its first line.
func labelPasted(text string) string {
	if strings.Count(text, "\n") < minPastedLines-1 {
		return text
	}
	lines := strings.Split(text, "\n")
	var out []string
	for i := 0; i < len(lines); {
		j, logged := i, 0
		for j < len(lines) && (logLine.MatchString(lines[j]) || strings.TrimSpace(lines[j]) == "" && logged > 0) {
			if strings.TrimSpace(lines[j]) != "" {
				logged++
			}
			j++
		}
		if logged >= minPastedLines {
			for j > i && strings.TrimSpace(lines[j-1]) == "" {
				j-- // a blank line after the log is the person's again
			}
			out = append(out, fmt.Sprintf("[pasted output, %d lines, starting: %s]", logged, oneLine(clip(strings.TrimSpace(lines[i]), 120))))
			i = j
			continue
		}
		out = append(out, lines[i])
		i++
	}
	return strings.Join(out, "\n")
}
