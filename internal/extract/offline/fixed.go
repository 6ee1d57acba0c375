package offline

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/dreamd/dreamd/internal/extract"
	"github.com/dreamd/dreamd/internal/lazyre"
	"github.com/dreamd/dreamd/internal/memory"
	"github.com/dreamd/dreamd/internal/transcript"
)

// A command that failed, then the same program run another way that worked, with nothing edited
// and nothing said between them, is how that program is run on this machine: `node
// d:\work\report.js` failed and `node /d/work/report.js` worked (Git Bash eats backslashes);
// `openclaw restart` failed with "unknown command" and `openclaw gateway stop` worked. Two runs
// are the same command written another way when they name the same things once paths are
// compared as paths; a run the program refused as it was written (an unknown command or
// option, the shell's unmatched quote) may be followed by another way of asking the same. Any
// other pair is the agent trying the next thing of its task (another script, another file,
// another device), which says nothing for the next session. Only an error that was the call's
// alone counts (the agent ran no other call awaiting its result), and a call the person refused
// did not run. Looking around (ls, cat, grep, find, git status) is not a way of running
// anything, a test or a build that failed and then passed is the code's doing, and a command
// that holds code, a message or a secret is the day's. Two failures say how this machine's
// shell and tools differ whatever the command: an option the program refused that the next run
// left out (optionLesson), and zsh's unmatched glob that worked quoted (globLesson).

// looksAround are the programs whose runs only look at things or move files about: a different
// path that works says where a thing was, not how a command runs.
var looksAround = map[string]bool{
	"ls": true, "dir": true, "cat": true, "type": true, "find": true, "grep": true, "rg": true, "ag": true,
	"head": true, "tail": true, "less": true, "more": true, "echo": true, "printf": true, "pwd": true,
	"which": true, "where": true, "whereis": true, "command": true, "test": true, "[": true, "stat": true,
	"wc": true, "file": true, "du": true, "df": true, "ps": true, "sed": true, "awk": true, "jq": true,
	"curl": true, "wget": true, "cd": true, "mkdir": true, "rm": true, "mv": true, "cp": true,
	"touch": true, "chmod": true, "chown": true, "ln": true, "tar": true, "unzip": true, "zip": true,
	"open": true, "start": true, "sleep": true, "kill": true, "pkill": true, "killall": true,
	"lsof": true, "env": true, "export": true, "set": true, "source": true, ".": true, "diff": true,
	"tree": true, "xargs": true, "date": true, "whoami": true, "uname": true, "id": true, "ping": true,
	"nslookup": true, "dig": true, "tasklist": true, "taskkill": true, "netstat": true, "ss": true,
	"get-childitem": true, "get-content": true, "select-string": true, "mdfind": true, "fd": true,
	"realpath": true, "readlink": true, "basename": true, "dirname": true, "sort": true, "uniq": true,
	"cut": true, "tr": true, "tee": true, "timeout": true, "nohup": true, "true": true, "false": true,
}

// gitLooks are git's subcommands that only look.
var gitLooks = map[string]bool{
	"status": true, "log": true, "diff": true, "show": true, "branch": true, "rev-parse": true,
	"ls-files": true, "remote": true, "config": true, "describe": true, "tag": true, "blame": true,
	"reflog": true, "ls-remote": true, "grep": true, "shortlog": true, "stash": true, "fetch": true,
}

// editTool is a tool call that changes a file: after it, a command that works again is the
// edit's doing.
var editTool = lazyre.New(`(?i)^(?:edit|multiedit|write|notebookedit|apply_patch|replace|write_file|edit_file|create_file|str_replace_editor|str_replace_based_edit_tool|patch|insert|write_to_file|replace_in_file|apply_diff):`)

// daysContent is what makes a command the day's own: inline code, a here-document, a long
// quoted message.
var daysContent = lazyre.New(`<<|\s-(?:c|e|m|-message|-body|-title)\s|"[^"]{41,}"|'[^']{41,}'|\n`)

// maxFixedCommand bounds the commands of a fix: a longer one is a script of the day.
const maxFixedCommand = 160

// fixed returns the lesson of calls[i], a failed call, when one of the next calls ran the same
// program another way and worked, with no edit and no word of the person between them.
func fixed(turns []extract.Turn, calls []call, i int, s *extract.Session) *lesson {
	failed := calls[i]
	oldCmd := runOf(failed.command)
	prog, rest := programOf(oldCmd)
	if !failed.alone || refused.MatchString(failed.output) {
		return nil
	}
	if n := optionLesson(turns, calls, i, s); n != nil {
		return n
	}
	if n := globLesson(turns, calls, i, s); n != nil {
		return n
	}
	if !plainRun(oldCmd) {
		return nil
	}
	if shellRefused.MatchString(failed.output) && quotedBackslash.MatchString(oldCmd) {
		return backslashLesson(calls, i, oldCmd, s)
	}
	if !runsSomething(prog, rest) || len(commandSeparator.Split(oldCmd, -1)) > 1 {
		return nil // a line of several commands: which one failed is not known
	}
	if looksSubcommand(oldCmd, "") {
		return nil // a query that failed (`gt deacon logs`) says nothing of how anything runs
	}
	misused := usageError.MatchString(failed.output)
	if _, _, _, ok := projectCommand(failed.command, failed.dir, s.Project); ok {
		return nil // a test or a build that failed: the code's, until it passes
	}
	for _, c := range calls[i+1 : min(len(calls), i+1+maxRetryCalls)] {
		if between(turns, failed.turn, c.turn) {
			return nil
		}
		newCmd := runOf(c.command)
		if c.failed || newCmd == oldCmd || !plainRun(newCmd) || askingHelp.MatchString(newCmd) || looksSubcommand(newCmd, oldCmd) {
			continue
		}
		// Another way of writing the same run names the same things; anything else counts only
		// after a usage error, never for a shell wrapper's other line or a run on files the failed
		// one did not name (`mix precommit` failed, `mix format lib/a.ex` worked: another task).
		sure := sameThings(oldCmd, newCmd)
		if newProg, _ := programOf(newCmd); newProg != prog || !sure && (!misused || shellWrapper[strings.ToLower(prog)] || namesMoreFiles(newCmd, oldCmd)) {
			continue
		}
		rule := fmt.Sprintf("`%s` fails here; `%s` works", oldCmd, newCmd)
		basis := fmt.Sprintf("`%s` failed and `%s` worked right after it, with nothing edited between them, in %s",
			oldCmd, newCmd, sessionOn(s))
		return evidenceLesson(memory.Feedback, rule, basis, "`"+prog+"` failed one way and worked another", s)
	}
	return nil
}

var (
	// refused is an agent saying the person refused the call: it never ran.
	refused = lazyre.New(`(?i)doesn't want to proceed with this tool use|tool use was rejected|rejected by the user|user (?:rejected|denied|declined)|declined by the user|aborted by (?:the )?user`)
	// usageError is a program refusing a command as it was written.
	usageError = lazyre.New(`(?i)unknown (?:command|option|flag|subcommand|argument)s?\b|unrecognized (?:option|command|argument|subcommand)s?\b|invalid (?:option|choice|command)\b|no such (?:command|option|subcommand)\b|did you mean\b|try '[^']*--help'|\busage:|unexpected argument|is not a [\w-]+ command|flag provided but not defined`)
	// shellRefused is the shell refusing a command line it could not parse.
	shellRefused = lazyre.New(`unexpected EOF while looking for matching|syntax error near unexpected token`)
	// askingHelp is a run that asks a program about itself rather than runs it.
	askingHelp = lazyre.New(`(?:^|\s)(?:--help|-h|(?i:-help)|--version|-V|help)(?:\s|$)`)
	// driveRoot is a Windows drive as a path starts with it: "d:/" (after slashes), "/d/" in Git Bash.
	driveRoot = lazyre.New(`^/?([a-z]):?/`)
)

// looksSubcommand reports whether a run asks its program how things stand (`docker compose
// logs api`, `gt daemon status`, `pm2 list`) where the failed run did something (`gt daemon
// start`): the agent looking into the failure, not another way of running it.
func looksSubcommand(newCmd, oldCmd string) bool {
	_, rest := programOf(newCmd)
	old := strings.Fields(strings.ToLower(oldCmd))
	for _, f := range strings.Fields(strings.ToLower(rest)) {
		if lookingSubcommands[f] && !slices.Contains(old, f) {
			return true
		}
	}
	return false
}

// shellWrapper are the programs that run a command line given to them (`powershell.exe -Command
// …`, `bash -c …`): what they ran is the line, so another line is another command, and only the
// same one written another way says how they are run.
var shellWrapper = map[string]bool{
	"powershell": true, "powershell.exe": true, "pwsh": true, "pwsh.exe": true, "cmd": true, "cmd.exe": true,
	"bash": true, "sh": true, "zsh": true, "bash.exe": true,
}

// lookingSubcommands are the subcommands, across programs, that only report.
var lookingSubcommands = map[string]bool{
	"status": true, "logs": true, "log": true, "ps": true, "list": true, "ls": true, "show": true,
	"info": true, "inspect": true, "version": true, "describe": true, "top": true, "events": true,
	"doctor": true, "check-config": true, "whoami": true, "get": true, "is-active": true, "health": true,
}

// sameThings reports whether two commands name the same things once their options are set
// aside and their paths are compared as paths: `node d:\work\a.js` and `node /d/work/a.js`,
// `powershell -File C:\a\x.ps1` and `powershell -File "C:\\a\\x.ps1"`.
func sameThings(a, b string) bool {
	x, y := thingsOf(a), thingsOf(b)
	return len(x) > 0 && slices.Equal(x, y) && slices.Equal(optionsOf(a), optionsOf(b))
}

// namesMoreFiles reports whether newCmd names more files or directories than oldCmd.
func namesMoreFiles(newCmd, oldCmd string) bool {
	files := func(cmd string) int {
		n := 0
		for _, f := range thingsOf(cmd) {
			if strings.Contains(f, "/") || filepath.Ext(f) != "" {
				n++
			}
		}
		return n
	}
	return files(newCmd) > files(oldCmd)
}

// optionsOf is a command's options, in order: `npm install --global docx` is another install
// than `npm install docx`, whatever its things.
func optionsOf(cmd string) []string {
	var out []string
	for _, f := range strings.Fields(cmd) {
		if strings.HasPrefix(f, "-") {
			out = append(out, f)
		}
	}
	return out
}

// thingsOf is what a command names, each as a path would compare: its words that are not options.
func thingsOf(cmd string) []string {
	var out []string
	for _, f := range strings.Fields(strings.NewReplacer(`"`, " ", `'`, " ").Replace(cmd)) {
		if strings.HasPrefix(f, "-") {
			continue
		}
		f = strings.ToLower(strings.ReplaceAll(f, `\`, "/"))
		for strings.Contains(f, "//") && !strings.Contains(f, "://") {
			f = strings.ReplaceAll(f, "//", "/")
		}
		f = driveRoot.ReplaceAllString(f, "/$1/")
		if f = strings.TrimRight(f, "/"); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// quotedBackslash is a Windows path that ends in a backslash right before its closing quote:
// "D:\out\" (Git Bash reads \" as a quote kept, and the line never ends).
var quotedBackslash = lazyre.New(`[A-Za-z]:\\[^"']*\\["']`)

// backslashLesson is the lesson of a command the shell could not parse because a Windows path
// ended in a backslash before its quote, when one of the next calls ran the same program and
// worked: one lesson, whatever the paths, so that every session that shows it adds its
// evidence to the same memory.
func backslashLesson(calls []call, i int, oldCmd string, s *extract.Session) *lesson {
	prog, _ := programOf(oldCmd)
	for _, c := range calls[i+1 : min(len(calls), i+1+maxRetryCalls)] {
		newCmd := runOf(c.command)
		if newProg, _ := programOf(newCmd); c.failed || newProg != prog || quotedBackslash.MatchString(newCmd) || !plainRun(newCmd) {
			continue
		}
		rule := "In this shell a Windows path must not end in `\\` before its closing quote; drop it or use `/c/…` paths"
		basis := fmt.Sprintf("`%s` failed (the shell found no closing quote) and `%s` worked right after it, in %s", oldCmd, newCmd, sessionOn(s))
		return evidenceLesson(memory.Feedback, rule, basis, "a path's last backslash broke the quote", s)
	}
	return nil
}

// runOf is a command as it ran, without the agent's trimming of its output or its "cd … &&".
func runOf(command string) string {
	command = strings.TrimSpace(command)
	if m := cdPrefix.FindStringSubmatch(command); m != nil {
		command = command[len(m[0]):]
	}
	command = strings.TrimSpace(outputTail.ReplaceAllString(command, ""))
	command = strings.TrimSpace(echoTail.ReplaceAllString(command, ""))
	return spaces.ReplaceAllString(command, " ")
}

// runsSomething reports whether a program run does something rather than looks around.
func runsSomething(prog, rest string) bool {
	if (strings.EqualFold(prog, "cmd") || strings.EqualFold(prog, "cmd.exe")) && strings.HasPrefix(strings.ToLower(rest), "/c ") {
		// `cmd /c "dir /a D:\x"`: what cmd runs is what the call does.
		prog, rest, _ = strings.Cut(strings.TrimLeft(rest[3:], ` "'`), " ")
	}
	if prog == "" || looksAround[strings.ToLower(prog)] || strings.ContainsAny(prog, "/\\$=") {
		return false
	}
	if prog == "git" {
		sub, _, _ := strings.Cut(rest, " ")
		return !gitLooks[sub] && !strings.HasPrefix(sub, "-")
	}
	return true
}

// plainRun reports whether a command is short and holds nothing of the day's content.
func plainRun(cmd string) bool {
	return cmd != "" && !strings.HasPrefix(cmd, "#") && len(cmd) <= maxFixedCommand && !daysContent.MatchString(" "+cmd+" ") &&
		!askingHelp.MatchString(cmd) && !hasSecret(cmd)
}

// between reports whether the person spoke, or a file was edited, between the
// turns from and to.
func between(turns []extract.Turn, from, to int) bool {
	for _, t := range turns[from+1 : to] {
		if t.Role == transcript.User || t.Role == transcript.Tool && editTool.MatchString(t.Text) {
			return true
		}
	}
	return false
}

// unknownOption is a program refusing one of its options by name, as getopt ("rsync:
// unrecognized option `--no-dereference'", BSD's "readlink: illegal option -- f"), argparse
// ("vllm: error: unrecognized arguments: --enable-reasoning"), Go's flag package, clap and
// commander write it: the program when the message names it, and the option.
var unknownOption = lazyre.New(`(?:^|\s|\()(?:([\w.+-]+):\s+(?:error:\s+)?)?(?:(?:unrecognized|unknown|illegal|invalid) option|unrecognized arguments?:|flag provided but not defined:|unexpected argument)\s+(?:-- )?[` + "`" + `'"‘]?(-{0,2}[A-Za-z][\w-]*)`)

// optionLesson is the lesson of calls[i] when its program refused one of its options and one of
// the next calls ran the program without that option and worked, nothing said or edited
// between: this machine's rsync has no --no-dereference, its readlink no -f.
func optionLesson(turns []extract.Turn, calls []call, i int, s *extract.Session) *lesson {
	failed := calls[i]
	all := unknownOption.FindAllStringSubmatch(failed.output, -1)
	if len(all) == 0 || slices.ContainsFunc(all[1:], func(o []string) bool { return o[1] != all[0][1] || o[2] != all[0][2] }) {
		return nil // several programs refusing options: a command line the shell ran otherwise than written
	}
	m := all[0]
	option := m[2]
	if !strings.HasPrefix(option, "-") {
		option = "-" + option // BSD's "illegal option -- f"
	}
	oldRun := segmentWith(failed.command, m[1], option)
	if oldRun == "" {
		return nil
	}
	prog, _ := programOf(oldRun)
	for _, c := range calls[i+1 : min(len(calls), i+1+maxRetryCalls)] {
		if between(turns, failed.turn, c.turn) {
			return nil
		}
		newRun := segmentWith(c.command, prog, "")
		if c.failed || newRun == "" || hasOption(newRun, option) || hasSecret(newRun) {
			continue
		}
		if !strings.Contains(strings.ToLower(m[0]), "illegal option") && !machineVariant.MatchString(agentSaid(turns, failed.turn, c.turn)) {
			return nil // an option the program has nowhere (grep --tail) is the agent's slip, not this machine's
		}
		rule := fmt.Sprintf("This machine's `%s` has no `%s` option (%s); leave it out", prog, option, strings.ToLower(unknownOptionWords(m[0])))
		basis := fmt.Sprintf("`%s` failed (%s) and `%s` worked right after it without it, in %s",
			clipCommand(oldRun), clipCommand(strings.TrimSpace(m[0])), clipCommand(newRun), sessionOn(s))
		n := evidenceLesson(memory.Feedback, rule, basis, "`"+prog+"` refused `"+option+"`", s)
		n.core = fmt.Sprintf("%s lacks option %s", prog, option) // named for what is missing: rsync-lacks-option-no-dereference
		return n
	}
	return nil
}

// machineVariant is the agent saying that a program is this machine's kind or version of it:
// "macOS 的 rsync 不支持该选项", "that version of vllm does not expose --enable-reasoning".
// BSD's tools say "illegal option" themselves.
var machineVariant = lazyre.New(`(?i)mac\s?os|darwin|\bbsd\b|busybox|alpine|\bversion\b|installed|this machine|your machine|版本|本机|本機|这台|這台|系统自带|系統自帶|version\s+de|versión|versão`)

// agentSaid is what the agent wrote between two turns.
func agentSaid(turns []extract.Turn, from, to int) string {
	var b strings.Builder
	for _, t := range turns[from+1 : to] {
		if t.Role == transcript.Assistant {
			b.WriteString(t.Text)
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// unknownOptionWords is how the message refused the option: "unrecognized option".
func unknownOptionWords(message string) string {
	for _, w := range []string{"unrecognized option", "unknown option", "illegal option", "invalid option", "unrecognized argument", "flag provided but not defined", "unexpected argument"} {
		if strings.Contains(strings.ToLower(message), w) {
			return w
		}
	}
	return "refused"
}

// segmentWith is the command of a command line (cut at &&, ||, ;, |, & and line ends) whose program is prog
// and which holds option ("" for any), or "" when none does; an empty prog is any program
// that holds the option.
func segmentWith(line, prog, option string) string {
	for _, seg := range commandSeparator.Split(line, -1) {
		seg = strings.TrimSpace(seg)
		p, _ := programOf(seg)
		if p == "" || prog != "" && !strings.EqualFold(filepathBase(p), filepathBase(prog)) {
			continue
		}
		if option == "" || hasOption(seg, option) {
			return seg
		}
	}
	return ""
}

// commandSeparator cuts a command line into its commands.
var commandSeparator = lazyre.New(`\s*(?:&&|\|\||;|\||&|\n)\s*`)

// hasOption reports whether a command gives option, alone or with its value (--x=1).
func hasOption(cmd, option string) bool {
	for _, f := range strings.Fields(cmd) {
		f = strings.Trim(f, `"'`)
		if f == option || strings.HasPrefix(f, option+"=") {
			return true
		}
	}
	return false
}

// noMatches is zsh refusing a word whose glob characters matched no file: "zsh: no matches
// found: app/[id]/page.tsx".
var noMatches = lazyre.New(`no matches found: (\S*[\[\]*?]\S*)`)

// globLesson is the lesson of calls[i] when zsh found no match for a word of it with [ ], * or ?
// (a Next.js route's [id]) and one of the next calls ran the same program with that word quoted
// and worked: one lesson, whatever the paths, so that every session that shows it adds to it.
func globLesson(turns []extract.Turn, calls []call, i int, s *extract.Session) *lesson {
	failed := calls[i]
	m := noMatches.FindStringSubmatch(failed.output)
	if m == nil {
		return nil
	}
	word := m[1]
	prog, _ := programOf(failed.command)
	for _, c := range calls[i+1 : min(len(calls), i+1+maxRetryCalls)] {
		if between(turns, failed.turn, c.turn) {
			return nil
		}
		newProg, _ := programOf(c.command)
		if c.failed || newProg != prog || !strings.Contains(c.command, "'"+word) && !strings.Contains(c.command, `"`+word) {
			continue
		}
		rule := "In this shell (zsh) a path with `[`, `]`, `*` or `?` in it (a route's `[id]`) must be quoted: unquoted, zsh says \"no matches found\" and runs nothing"
		basis := fmt.Sprintf("`%s` failed (no matches found: %s) and the same `%s` with the path quoted worked right after it, in %s",
			clipCommand(failed.command), word, prog, sessionOn(s))
		return evidenceLesson(memory.Feedback, rule, basis, "zsh found no match for an unquoted path", s)
	}
	return nil
}
