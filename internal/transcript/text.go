package transcript

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/dreamd/dreamd/internal/sanitize"

	"github.com/tidwall/gjson"
)

// clipMark ends a text that was cut to its cap, so a reader knows there was more.
const clipMark = " […]"

// clip sanitises s (no NUL or control characters get past an adapter), trims it (trimBlankLines)
// and cuts it to at most max bytes on a rune boundary. The result never shares memory with s,
// which may point into a reused line buffer.
func clip(s string, max int) string {
	s = sanitize.Text(trimBlankLines(prefix(s, 4*max)))
	s = trimBlankLines(collapseBlankLines(s))
	if len(s) <= max {
		return strings.Clone(s)
	}
	return strings.TrimRight(prefix(s, max-len(clipMark)), " \t\r\n") + clipMark
}

// trimBlankLines cuts the blank lines around a text, and the spaces around one of a single line;
// the first line of several keeps its indentation: a block pasted indented is indented from its
// first line, and read as such (a person's message pasted as an indented list is not prose).
func trimBlankLines(s string) string {
	s = strings.TrimRight(s, " \t\r\n")
	for {
		line, rest, ok := strings.Cut(s, "\n")
		if !ok {
			return strings.TrimSpace(s)
		}
		if strings.TrimSpace(line) != "" {
			return s
		}
		s = rest
	}
}

// collapseBlankLines turns every run of blank lines into one: a message padded with hundreds of
// empty lines (seen in Gemini CLI sessions) says nothing more than one paragraph break.
func collapseBlankLines(s string) string {
	if !strings.Contains(s, "\n\n\n") && !strings.Contains(s, "\n \n") && !strings.Contains(s, "\n\t\n") {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	blank := 0
	for line := range strings.Lines(s) {
		if strings.TrimSpace(line) == "" {
			blank++
			if blank > 1 {
				continue
			}
			b.WriteString("\n")
			continue
		}
		blank = 0
		b.WriteString(line)
	}
	return b.String()
}

// prefix returns at most the first n bytes of s, cut on a rune boundary. It bounds the work done
// on texts that will be clipped anyway.
func prefix(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// oneLine collapses all runs of white space, newlines included, into single spaces.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// stripBlocks removes every <tag …>…</tag> block from s; an unclosed block runs to the end.
func stripBlocks(s, tag string) string {
	end := "</" + tag + ">"
	var kept strings.Builder
	for {
		i := indexTag(s, tag)
		if i < 0 && kept.Len() == 0 {
			return s
		}
		if i < 0 {
			kept.WriteString(s)
			return kept.String()
		}
		kept.WriteString(s[:i])
		j := strings.Index(s[i:], end)
		if j < 0 {
			return kept.String()
		}
		s = s[i+j+len(end):]
	}
}

// unwrapTags removes the <tag> and </tag> markers around content that is kept.
func unwrapTags(s, tag string) string {
	s = strings.ReplaceAll(s, "<"+tag+">", "")
	return strings.ReplaceAll(s, "</"+tag+">", "\n")
}

// indexTag finds the opening "<tag>" or "<tag attr…>" in s.
func indexTag(s, tag string) int {
	open := "<" + tag
	for from := 0; ; {
		i := strings.Index(s[from:], open)
		if i < 0 {
			return -1
		}
		i += from
		if k := i + len(open); k < len(s) && strings.IndexByte("> \n\t", s[k]) >= 0 {
			return i
		}
		from = i + len(open)
	}
}

// partsText returns about the first n bytes of the text of a raw message content: a string, or
// a list whose items are strings or objects with a "text" field (images, files and other parts
// are left out).
func partsText(content string, n int) string {
	content = strings.TrimSpace(content)
	if strings.HasPrefix(content, `"`) {
		return jsonPrefix(content, n)
	}
	var parts []string
	size := 0
	eachElement(content, func(item string) bool {
		var text string
		switch item[0] {
		case '"':
			text = jsonPrefix(item, n-size)
		case '{':
			if typ := jsonString(member(item, "type")); typ == "" || strings.HasSuffix(typ, "text") {
				text = jsonPrefix(member(item, "text"), n-size)
			}
		}
		if text != "" {
			parts = append(parts, text)
			size += len(text) + 1
		}
		return size < n
	})
	return strings.Join(parts, "\n")
}

// toolArgKeys are the input fields that best say what a tool call did, most telling first.
var toolArgKeys = []string{
	"command", "cmd", "file_path", "filePath", "absolute_path", "notebook_path", "path", "paths",
	"pattern", "url", "query", "description", "prompt",
}

// toolLine says in one short line what a tool call did, e.g. "Bash: make lint".
func toolLine(name, arg string) string {
	if strings.TrimSpace(arg) == "" {
		return name
	}
	return oneLine(name + ": " + prefix(arg, 2*maxToolLine))
}

// toolArg picks what a tool call acted on from its raw JSON input: the most telling field of an
// object, a string's text, or, failing those, the input itself (cut short). Plain text that is
// not JSON is taken as it is.
func toolArg(input string) string {
	input = strings.TrimSpace(input)
	switch {
	case input == "" || input == "{}" || input == "null":
		return ""
	case input[0] == '"':
		return jsonPrefix(input, 2*maxToolLine)
	case input[0] != '{':
		return prefix(input, 2*maxToolLine)
	}
	best, arg := len(toolArgKeys), ""
	eachMember(input, func(key, value string) bool {
		i := slices.Index(toolArgKeys, key)
		if i < 0 || i >= best {
			return true
		}
		text := jsonPrefix(value, 2*maxToolLine)
		if strings.HasPrefix(value, "[") {
			text = shellCommand(gjson.Parse(value))
		}
		if strings.TrimSpace(text) != "" {
			best, arg = i, text
		}
		return best > 0
	})
	if arg == "" {
		return prefix(input, 2*maxToolLine)
	}
	return arg
}

// commandKeys are the input fields that hold a shell call's command.
var commandKeys = []string{"command", "cmd", "commands"}

// dirKeys are the input fields in which the agents' shell tools take the directory the command
// runs in: Codex CLI's exec_command and shell (workdir), its local_shell action
// (working_directory), OpenCode (workdir), Gemini CLI (dir_path; directory before 0.30), Qwen
// Code (directory), and cwd.
var dirKeys = []string{"workdir", "dir_path", "directory", "working_directory", "cwd"}

// toolDir returns the directory a shell call's raw JSON input names for its command to run in, ""
// when the input is no shell call's (a list_directory call's dir_path is no such directory) or
// names none.
func toolDir(input string) string {
	return shellDir(input, "")
}

// shellDir is toolDir for an agent whose shell keeps its directory between calls: a shell call
// that names no directory runs in shellCwd, the shell's directory when the call was made.
func shellDir(input, shellCwd string) string {
	input = strings.TrimSpace(input)
	if !strings.HasPrefix(input, "{") {
		return ""
	}
	var dir string
	shell := false
	eachMember(input, func(key, value string) bool {
		switch {
		case slices.Contains(commandKeys, key):
			shell = true
		case dir == "" && slices.Contains(dirKeys, key):
			dir = strings.TrimSpace(jsonPrefix(value, maxDir))
		}
		return true
	})
	switch {
	case !shell || len(dir) >= maxDir || len(shellCwd) >= maxDir:
		return ""
	case dir == "":
		dir = shellCwd
	}
	// A clone: the input points into a reused line buffer.
	return strings.Clone(sanitize.Text(dir))
}

// resolveDir makes a shell call's relative directory absolute against root, the directory the agent
// ran in (a Gemini CLI dir_path is relative to its workspace, a Codex CLI workdir to the turn's
// cwd); "", an absolute directory, and any directory when root is not absolute are returned as
// they are.
func resolveDir(dir, root string) string {
	if dir == "" || filepath.IsAbs(dir) || !filepath.IsAbs(root) {
		return dir
	}
	return filepath.Join(root, dir)
}

// maxDir bounds a working directory: a longer one is no path an agent passed.
const maxDir = 1024

// argsInput is function-call arguments as a JSON document: they usually arrive as one inside a
// JSON string, of which only the head is decoded (the telling fields come first, and a patch or
// file written through the call may be large).
func argsInput(raw string) string {
	if strings.HasPrefix(raw, `"`) {
		return jsonPrefix(raw, 64<<10)
	}
	return raw
}

// argsText is toolArg for function-call arguments.
func argsText(raw string) string { return toolArg(argsInput(raw)) }

// callTurn is the tool turn of a function call: what it did and where its shell command ran, its
// arguments decoded once.
func callTurn(name, rawArgs string) Turn {
	input := argsInput(rawArgs)
	return Turn{Role: Tool, Text: toolLine(name, toolArg(input)), Dir: toolDir(input)}
}

// shellCommand renders an argv, unwrapping the usual ["bash", "-lc", "script"].
func shellCommand(argv gjson.Result) string {
	var args []string
	argv.ForEach(func(_, a gjson.Result) bool {
		args = append(args, a.String())
		return len(args) < 64
	})
	if len(args) == 3 && (args[1] == "-c" || args[1] == "-lc") {
		return args[2]
	}
	return strings.Join(args, " ")
}

// parseTime reads an RFC 3339 string or a Unix time in seconds or milliseconds; zero if neither.
func parseTime(r gjson.Result) time.Time {
	switch r.Type {
	case gjson.String:
		t, err := time.Parse(time.RFC3339Nano, r.Str)
		if err != nil {
			return time.Time{}
		}
		return t
	case gjson.Number:
		n := r.Int()
		if n <= 0 {
			return time.Time{}
		}
		if n > 1e11 {
			return time.UnixMilli(n).UTC()
		}
		return time.Unix(n, 0).UTC()
	}
	return time.Time{}
}

// agentsHeading opens the AGENTS.md that Codex and the editor clients driving it put in a user
// message: "# AGENTS.md instructions for <dir>", then the file in an <INSTRUCTIONS> block.
const agentsHeading = "# AGENTS.md instructions"

// injectedFree cuts the blocks of injected context named by tags out of a user message, with the
// AGENTS.md heading in front of its block, and returns what is left: the person's words, "" when
// there are none. A heading whose file is not in a block is taken to run to the end.
func injectedFree(text string, tags []string) string {
	if !strings.Contains(text, "<") && !strings.Contains(text, agentsHeading) {
		return text
	}
	for strings.Contains(text, agentsHeading) {
		i := strings.Index(text, agentsHeading)
		if i > 0 && text[i-1] != '\n' {
			break // quoted inside the person's words
		}
		end := strings.IndexByte(text[i:], '\n')
		if end < 0 {
			return strings.TrimSpace(text[:i])
		}
		rest := strings.TrimLeft(text[i+end:], " \t\r\n")
		if !strings.HasPrefix(rest, "<") {
			return strings.TrimSpace(text[:i])
		}
		text = text[:i] + rest
	}
	for _, tag := range tags {
		if strings.Contains(text, "<"+tag) {
			text = stripBlocks(text, tag)
		}
	}
	return strings.TrimSpace(text)
}

// Prompt files that a custom command expands into the person's message (Codex's /prompts:name,
// spec-kit's /speckit.* templates, a harness's generated task prompt) are their author's text, not
// the person's. What the person typed, the command's arguments, is kept; a document that holds
// no such place is labelled in one line.
const (
	// specKitInput heads the place a spec-kit template puts the command's arguments, in a
	// ```text fence.
	specKitInput = "## User Input"
	// minPromptDocument is the size from which a message of markdown sections is a document.
	minPromptDocument = 1200
)

// promptFree returns what the person typed of a message that a prompt file expanded into (the
// command and its arguments), a one-line label for a document nobody typed, or text unchanged.
func promptFree(text string) string {
	if args, ok := templateArguments(text); ok {
		if args == "" {
			return ""
		}
		if name := templateCommand(text); name != "" {
			return name + " " + args
		}
		return args
	}
	if frontMatterPrompt(text) || promptDocument(text) {
		first, _, _ := strings.Cut(strings.TrimSpace(strings.TrimPrefix(frontMatterBody(text), "\n")), "\n")
		return fmt.Sprintf("[prompt document, %d lines, starting: %s]", strings.Count(text, "\n")+1, oneLine(clip(first, 120)))
	}
	return text
}

// templateArguments finds the arguments in a message expanded from a template that quotes them
// under "## User Input" in a fence. ok is false when text is no such template; args is "" when the
// command was given none (or the placeholder was left unexpanded).
func templateArguments(text string) (args string, ok bool) {
	if args, ok := earlyTemplateArguments(text); ok {
		return args, true
	}
	i := strings.Index(text, specKitInput)
	if i < 0 || (i > 0 && text[i-1] != '\n') {
		return "", false
	}
	rest := strings.TrimLeft(text[i+len(specKitInput):], " \t\r\n")
	if !strings.HasPrefix(rest, "```") {
		return "", false
	}
	nl := strings.IndexByte(rest, '\n')
	if nl < 0 {
		return "", false
	}
	body := rest[nl+1:]
	end := strings.Index(body, "\n```")
	if end < 0 {
		if !strings.HasPrefix(body, "```") {
			return "", false
		}
		end = 0
	}
	args = strings.TrimSpace(body[:end])
	if args == "$ARGUMENTS" || args == "{{args}}" {
		args = ""
	}
	return args, true
}

// Early spec-kit templates (and those made after them) put the arguments after "User input:" and
// before the sentence that names the command, without a fence.
const (
	earlyInput    = "\nUser input:\n"
	earlyTypedSay = "\nThe text the user typed after `/"
)

// earlyTemplateArguments finds the arguments of a message expanded from an early template.
func earlyTemplateArguments(text string) (string, bool) {
	_, rest, ok := strings.Cut("\n"+text, earlyInput)
	if !ok {
		return "", false
	}
	args, _, ok := strings.Cut(rest, earlyTypedSay)
	if !ok {
		return "", false
	}
	args = strings.TrimSpace(args)
	if args == "$ARGUMENTS" {
		args = ""
	}
	return args, true
}

// templateCommand is the command a template names as the one the person typed ("the text the
// user typed after `/speckit.specify`"), "" when it names none.
func templateCommand(text string) string {
	_, rest, ok := strings.Cut(text, "after `/")
	if !ok {
		return ""
	}
	name, _, ok := strings.Cut(rest, "`")
	if !ok || name == "" || strings.ContainsAny(name, " \n\t") || len(name) > 64 {
		return ""
	}
	return "/" + name
}

// frontMatterPrompt reports a prompt file pasted whole, its YAML front matter first
// ("---\ndescription: …\n---").
func frontMatterPrompt(text string) bool {
	if !strings.HasPrefix(text, "---\n") {
		return false
	}
	head, _, ok := strings.Cut(text[4:], "\n---")
	return ok && len(head) < 2048 && (strings.Contains(head, "description:") || strings.Contains(head, "argument-hint:"))
}

// frontMatterBody is text without its front matter.
func frontMatterBody(text string) string {
	if !frontMatterPrompt(text) {
		return text
	}
	_, body, _ := strings.Cut(text[4:], "\n---")
	return body
}

// promptDocument reports a message that is a document of several markdown sections written to a
// model, the shape of a prompt file or a generated task (an evaluation harness's prompt), not of
// something typed in a chat: people ask in a sentence or a few paragraphs. A bug report of
// sections a person pastes does not speak to the model, and stays.
func promptDocument(text string) bool {
	if len(text) < minPromptDocument {
		return false
	}
	headings, fence := 0, false
	for line := range strings.Lines(text) {
		line = strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(line, "```"):
			fence = !fence
		case !fence && strings.HasPrefix(line, "#"):
			if h := strings.TrimLeft(line, "#"); h != "" && h[0] == ' ' {
				headings++
			}
		}
	}
	return headings >= 3 && addressesModel(text)
}

// promptMarkers are what a prompt written for a model says, and a report or a spec a person
// pastes with their question rarely does.
var promptMarkers = []string{
	"you are ", "your task", "you must", "**must**", "$arguments", "{{", "# instructions", "# task",
	"# output format", "# rules", "respond with", "respond in", "answer in", "do not ask the user",
}

// addressesModel reports whether text speaks to a model, as a prompt does.
func addressesModel(text string) bool {
	lower := strings.ToLower(prefix(text, 64<<10))
	for _, m := range promptMarkers {
		if strings.Contains(lower, m) {
			return true
		}
	}
	return false
}

// ideRequestHeading introduces the person's words in the message the Codex IDE extension (and
// clients after it) sends: "# Context from my IDE setup:" or "# Files mentioned by the user:"
// with the active file, open tabs and selections, then "## My request for Codex:" and what the
// person typed.
const ideRequestHeading = "## My request for "

// ideRequest returns what follows the last request heading of a message an IDE client wrapped,
// or text unchanged.
func ideRequest(text string) string {
	i := strings.LastIndex(text, ideRequestHeading)
	if i < 0 || (i > 0 && text[i-1] != '\n') {
		return text
	}
	line, rest, _ := strings.Cut(text[i:], "\n")
	if !strings.HasSuffix(strings.TrimSpace(line), ":") || len(line) > 80 {
		return text
	}
	return strings.TrimSpace(rest)
}
