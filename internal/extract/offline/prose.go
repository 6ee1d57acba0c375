package offline

import (
	"strings"
	"unicode"

	"github.com/dreamd/dreamd/internal/lazyre"
	"github.com/dreamd/dreamd/internal/transcript"
)

// sentences returns the sentences of a user turn's prose: code blocks, tagged blocks
// (<system-reminder>…</system-reminder>, <command-name>…) and lines that look like pasted tool
// output are left out, since lessons are what the person wrote, not what they pasted.
func sentences(text string) []string {
	var out []string
	for _, p := range pieces(text) {
		out = append(out, p.text)
	}
	return out
}

// piece is one sentence of a turn's prose. A piece that follows a ';' is joined to the one
// before: it goes on with the same thought ("it needs a clean tree; commit or stash first").
type piece struct {
	text   string
	joined bool
}

// pieces returns the sentences of a user turn's prose, as sentences does, with how each is tied
// to the one before.
func pieces(text string) []piece {
	var out []piece
	for _, line := range proseLines(text) {
		out = append(out, splitSentences(line)...)
	}
	return out
}

var (
	fenceLine = lazyre.New("^\\s*(```|~~~)")
	openTag   = lazyre.New(`^<([a-zA-Z][\w-]*)(\s[^>]*)?>`)
	bullet    = lazyre.New(`^(?:[-*+•]|\d{1,3}[.)])\s+`)
)

// proseLines returns the lines of text a person typed as prose, bullets stripped.
func proseLines(text string) []string {
	var out []string
	inFence, closeTag := false, ""
	afterPrompt := false // the lines before were a shell prompt and its output, so far
	for _, line := range strings.Split(text, "\n") {
		trimmed := strings.TrimSpace(line)
		if afterPrompt && trimmed != "" && (line[0] == ' ' || line[0] == '\t') {
			continue // "$ codex app-server" ⏎ "  note: binds localhost only …": what it printed, indented
		}
		afterPrompt = afterPrompt && trimmed != "" || shellPrompt.MatchString(trimmed)
		switch {
		case closeTag != "":
			if strings.Contains(trimmed, closeTag) {
				closeTag = ""
			}
			continue
		case fenceLine.MatchString(line):
			inFence = !inFence
			continue
		case inFence:
			continue
		}
		if m := openTag.FindStringSubmatch(trimmed); m != nil {
			if end := "</" + m[1] + ">"; !strings.Contains(trimmed, end) {
				closeTag = end
			}
			continue
		}
		if trimmed == "" || isIndentedCode(line) || looksLikeToolOutput(trimmed) || companyVoice.MatchString(trimmed) {
			continue
		}
		for _, item := range unglued(trimmed) {
			item = bullet.ReplaceAllString(item, "")
			if n := len(out); n > 0 && danglingEnd.MatchString(out[n-1]) {
				out[n-1] += " " + item // "setup project theo hướng của" ⏎ "Prisma + Express + TS Starter"
				continue
			}
			out = append(out, item)
		}
	}
	return out
}

// shellPrompt opens a line pasted from a terminal: the command, whose output follows.
var shellPrompt = lazyre.New(`^(?:\$|[\w.-]+@[\w.-]+:\S*[$#]|PS [A-Z]:\\\S*>)\s+\S`)

// companyVoice is a line a company wrote to its customers, pasted in (a press release, a
// product page): "今後、…開発者の皆さまの利用状況から学び…", "尊敬的用户…", "We're excited to
// announce…". A person writing to the agent does not address "everyone" or "dear users". (Not
// "our company": 弊社では GitLab を使っています is the person's fact.)
var companyVoice = lazyre.New(`(?i)皆さま|皆様|尊敬的用户|亲爱的用户|各位用户|\bwe(?:'re|\s+are)\s+(?:excited|thrilled|pleased|proud)\s+to\s+(?:announce|introduce|share)\b|nous\s+sommes\s+(?:ravis|heureux|fiers)\s+d'(?:annoncer|introduire)|nos\s+complace\s+anunciar|estamos\s+(?:felices|encantados|orgullosos)\s+de\s+anunciar|temos\s+o\s+prazer\s+de\s+anunciar|wir\s+freuen\s+uns,?\s+(?:ihnen\s+)?(?:mitteilen|ankündigen|bekannt)`)

// danglingEnd is a line that stops on a word a sentence cannot end with, a preposition or an
// article: its sentence goes on on the next line.
var danglingEnd = lazyre.New(`(?i)(?:^|\s)(?:of|with|using|the|an|to|for|theo|của|với|bằng|dùng|de|del|con|com|avec|mit|von|met|van|and|và|et|und)$`)

// gluedLine is where a pasted list lost its line breaks (some terminals drop them, and the agent
// logs the lines run together): a bullet or a bold heading right after a line's last character,
// "…individualizado.”- Use imagens fictícias- Não utilize frameworks**Saída esperada:**".
var gluedLine = lazyre.New(`[^\s-](- )\p{Lu}|[^\s*-](\*\*)\p{Lu}`)

// unglued splits a line at each gluedLine, where its lines were.
func unglued(line string) []string {
	var out []string
	start := 0
	for _, m := range gluedLine.FindAllStringSubmatchIndex(line, -1) {
		at := max(m[2], m[4]) // the bullet's or the heading's start (the group that matched)
		if item := strings.TrimSpace(line[start:at]); item != "" {
			out = append(out, item)
		}
		start = at
	}
	return append(out, line[start:])
}

func isIndentedCode(line string) bool {
	return strings.HasPrefix(line, "\t") || strings.HasPrefix(line, "    ")
}

// toolOutput matches the first characters of lines that programs print: prompts, stack traces,
// compiler and test-runner output, diffs, logs, JSON, tables.
var toolOutput = lazyre.New(`^(?:` +
	`[$%#>|│├└┌┐┘─+]|>>>|\.\.\.|PS [A-Z]:|` +
	`at\s+[\w.$<>]+\(|File ".+", line \d+|Traceback|panic:|goroutine \d+|fatal:|` +
	`(?i:error|warning|warn|info|debug|trace|exception|caused by)(?:\[[\w-]+\])?:|` +
	// an app's error, its label in the person's language and its message in English: "選択の添付
	// に失敗: Cannot access contents of url …", "上传失败：Network Error"
	`[^\s:：]{0,20}(?:失敗|失败|エラー|错误|錯誤|오류|에러)\s*[:：]\s*[A-Za-z]|` +
	// tsc's, C#'s and MSVC's "error TS2688: …", "warning CS0168: …"
	`(?i:error|warning)\s+(?:TS|CS|C|LNK)\d{3,5}:|` +
	// logrus's "WARN[0000] DEPRECATION: …" (containerd, docker), git's "hint: …" and "remote: …"
	`(?:INFO|WARN|ERRO|DEBU|FATA|PANI|TRAC)\[\d+\]\s|(?:hint|remote):\s|` +
	// go test's "ok  \tpkg": a person's "ok ora la Action funziona …" is theirs
	`ok(?:\t| {2,})|(?:FAIL|PASS|RUN|---|\+\+\+|@@|diff --git|index [0-9a-f]+|npm (?:ERR|WARN)!?)(?:\s|$)|` +
	`E\s{2,}|\d+ (?:passed|failed)|` +
	`\[?\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}|\d{2}:\d{2}:\d{2}|` +
	`[\[{]|"[^"]+"\s*:|<[^>]+>|` +
	`[\w./-]+\.\w+:\d+(?::\d+)?|` +
	// Kotlin's and Gradle's "e: file:///…/A.kt:122:9 …", tsc's "src/a.ts(12,3): error TS2322"
	`[ewiv]:\s+(?:file:/|/|[A-Za-z]:\\)|file:/{1,3}\S|[\w./-]+\.\w+\(\d+,\d+\)` +
	`)`)

// keyValue is a logfmt line: "level=info msg=…".
var keyValue = lazyre.New(`^\w+=\S+\s+\w+=\S+`)

// logLine matches the lines of logs and listings that do not start like tool output: a journald
// or syslog prefix ("Nov 20 10:00:01 node1 containerd[812]: …"), klog ("I1120 10:00:01.123456"),
// a logfmt field anywhere ("… level=error msg=…", containerd, dockerd, kubelet), shell prompts of
// zsh, fish, bash and PowerShell, table rows, aligned fields (kubectl describe), docker compose's
// "service  | " prefix and access log lines.
var logLine = lazyre.New(`^(?:` +
	`[A-Z][a-z]{2}\s+\d{1,2}\s+\d{2}:\d{2}:\d{2}\s|[IWEF]\d{4}\s+\d{2}:\d{2}:\d{2}|` +
	`[➜❯λ]\s|[\w.-]+@[\w.-]+:\S*\s?[$#%]|` +
	`.*\|.*\||[\w .()/-]{1,40}:\s{3,}\S|[\w.-]+\s+\|\s|\d{1,3}(?:\.\d{1,3}){3}\s` +
	`)|(?:^|\s)(?:level|lvl)=["\w]|(?:^|\s)msg="`)

// errorAfterWords is a program's error, at the line's start or run on after a few words of the
// person's: a browser console's "(index):1 Uncaught TypeError: Failed to resolve module specifier
// …", "出错了 Error: useSidebar must be used within a SidebarProvider", "google-github-actions/auth
// failed with: the GitHub Action workflow must specify …". What follows is the program's, and the
// words before it only say that it failed. The error's name is a program's spelling ("Error:",
// "TypeError:", "ERROR:"), not a person's "on every error: retry twice".
var errorAfterWords = lazyre.New(`(?:^|[\s(])\w*(?:Error|ERROR|Exception)\s*[:：]\s*\S|\bfailed\s+with\s*[:：]`)

// looksLikeToolOutput reports whether a line is more likely printed by a program than typed by
// a person.
func looksLikeToolOutput(line string) bool {
	if toolOutput.MatchString(line) || errorAfterWords.MatchString(line) || keyValue.MatchString(line) || logLine.MatchString(line) || transcript.AlignedColumns(line) {
		return true
	}
	letters, other := 0, 0
	for _, r := range line {
		switch {
		case unicode.IsLetter(r):
			letters++
		case !unicode.IsSpace(r):
			other++
		}
	}
	return letters < 2*other
}

var abbreviations = map[string]bool{
	"e.g": true, "i.e": true, "etc": true, "vs": true, "cf": true, "approx": true, "mr": true,
	"mrs": true, "dr": true, "no": true, "eg": true, "ie": true, "min": true, "max": true,
}

// splitSentences cuts a line after '.', '!', '?' or ';' followed by a space, outside backticks
// and not after an abbreviation or a single letter ("e.g. ", "U.S. ").
func splitSentences(line string) []piece {
	var out []piece
	start, inCode, joined := 0, false, false
	for i := 0; i < len(line); i++ {
		c := line[i]
		if c == '`' {
			inCode = !inCode
			continue
		}
		if inCode || !strings.ContainsRune(".!?;", rune(c)) || i+1 >= len(line) || line[i+1] != ' ' {
			continue
		}
		if c == '.' && isAbbreviation(line[start:i]) {
			continue
		}
		out = appendSentence(out, line[start:i+1], joined)
		start, joined = i+1, c == ';'
	}
	return appendSentence(out, line[start:], joined)
}

func isAbbreviation(before string) bool {
	i := strings.LastIndexFunc(before, unicode.IsSpace)
	word := strings.ToLower(before[i+1:])
	return abbreviations[word] || len([]rune(word)) == 1
}

func appendSentence(out []piece, s string, joined bool) []piece {
	s = strings.TrimSpace(s)
	if m := butFromNow.FindStringSubmatchIndex(s); m != nil {
		out = appendSentence(out, s[:m[0]]+".", joined)
		s, joined = s[m[2]:], false
	}
	if s != "" {
		out = append(out, piece{text: s, joined: joined && len(out) > 0})
	}
	return out
}

// butFromNow is a rule that starts halfway through a sentence: "No need to roll back the .env
// file, but from now, NOTE that DO NOT REMOVE …". The rule is a sentence of its own.
var butFromNow = lazyre.New(`(?i),\s+(?:but|and|so|however)\s+((?:from\s+now\b|going\s+forward|moving\s+forward|in\s+(?:the\s+)?future\b|(?:please\s+)?(?:note|remember)\s+that\b|for\s+future\s+reference)[^.!?]*)`)
