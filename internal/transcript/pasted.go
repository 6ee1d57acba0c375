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
	`(?-i:[A-Z][a-z]{2})\s+\d{1,2}\s+\d{2}:\d{2}:\d{2}\s|` + // journald, syslog: "Nov 20 10:00:01 host unit[812]:"
	`(?-i:[IWEF])\d{4}\s+\d{2}:\d{2}:\d{2}|` + // klog (kubelet, kubectl -v): "I1120 10:00:01.123456"
	`\{"(?:level|lvl|time|ts|timestamp|msg|severity)"\s*:|` + // JSON log lines
	`\[?(?:trace|debug|info|warn|warning|error|fatal|panic|critical)\]?[:\s]|` + // levels
	`at\s+[\w$.<>]+\s*\(|file\s+"[^"]+",\s+line\s+\d+|traceback\s+\(most recent call last\)|` + // stack frames
	`[\w./-]+\.(?:go|py|js|ts|tsx|rs|java|rb|c|cc|cpp|kt|swift|php):\d+|goroutine\s+\d+\s+\[|panic:|` +
	`---\s+(?:fail|pass|skip):|===\s+(?:run|pause|cont)|(?:ok|fail)\s+\S+\s+[\d.]+s|` + // go test
	`npm\s+(?:err!|warn)|error\[e\d+\]|warning:|error:|\d+\s+(?:passed|failed|errors?)\b|` +
	`\$\s+\S|%\s+\S|>\s+\S+@\S+\s|#\d+\s+\d+\.\d+\s|` + // a shell prompt, npm and docker build steps
	`[➜❯λ]\s|ps\s+[a-z]:\\[^>]*>|[\w.-]+@[\w.-]+:\S*\s?[$#%]|` + // zsh, fish, PowerShell, user@host:~$ prompts
	`\|.*\||[│┃├└┌┐┘╭╰═║]|\+[-=+]{3,}|` + // table rows and borders
	`[\w .()/-]{1,40}:\s{3,}\S|` + // aligned fields: kubectl describe, docker inspect, systemctl status
	`[\w.-]+\s+\|\s|` + // docker compose logs: "api-1  | …"
	`\[?\d+\s?ms\]|` + // VS Code's Dev Containers and Remote logs: "[1768 ms] Start: Run: …"
	`(?:(?:processing triggers for|setting up|unpacking)\s+\S+\s+\(|preparing to unpack\s+\S|selecting previously unselected|debconf:|(?:get|hit|ign):\d+\s)|` + // apt: "Setting up git (1:2.43.0) ..."
	`[\w$.<>()\[\] ]{1,80}\s@\s\S+:\d+(?::\d+)?(?:Understand this (?:error|warning))?\s*$|await\s+in\s+\S+\s*$|<[\w.]+>\s*$|` + // a browser console's stack: "fetchImpl @ app.js?v=2e7:267", React's "<button>"
	`\d{1,3}(?:\.\d{1,3}){3}\s` + // an access log line, from the client's address
	`)`)

// logField matches a logfmt field anywhere in a line: "time=… level=info msg=…", the form of
// containerd, dockerd, kubelet and most Go services, often behind a journald prefix.
var logField = lazyre.New(`(?:^|\s)(?:level|lvl)=["\w]|(?:^|\s)msg="`)

// isLogLine reports whether a line was printed by a program: see logLine and logField; or it is
// a row of aligned columns, the form of kubectl get, docker ps, ls -l and most listings.
func isLogLine(line string) bool {
	return logLine.MatchString(line) || logField.MatchString(line) || AlignedColumns(line)
}

// AlignedColumns reports a row of at least three columns set apart by runs of two or more spaces
// ("web-7c5d   1/1   Running   0   5m", kubectl get, docker ps). A typist's double space after a
// full stop is no column. The offline consolidator's line filter asks it too.
func AlignedColumns(line string) bool {
	line = strings.TrimSpace(line)
	gaps := 0
	for i := 0; i+1 < len(line); i++ {
		if line[i] != ' ' || line[i+1] != ' ' {
			continue
		}
		if i > 0 && strings.IndexByte(".!?:;,", line[i-1]) >= 0 {
			return false
		}
		gaps++
		for i+1 < len(line) && line[i+1] == ' ' {
			i++
		}
	}
	return gaps >= 2
}

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
		for j < len(lines) && (isLogLine(lines[j]) || strings.TrimSpace(lines[j]) == "" && logged > 0) {
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
