package transcript

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/dreamd/dreamd/internal/sanitize"
	"github.com/tidwall/gjson"
)

// Gemini CLI also logs every prompt the person submits to <folder>/logs.json, a JSON array of
// {"sessionId", "messageId", "type": "user", "message", "timestamp"} that it rewrites whole at
// each prompt, for all the folder's sessions. A session's chats/ file holds the same prompts with
// the agent's side, so a session that has one is read from there; logs.json is read for the
// sessions that have none: those of Gemini CLI versions that recorded no chats, those whose chats
// its session cleanup deleted before dreamd kept them, and the folders people publish with only
// their logs.json. Such a session is the person's prompts alone: no reply, no tool call.
//
// The file is only ever appended to in its array, so its cursor's Seen records how many entries
// were read and a sum of them (see geminiLogsSeen): a later reading skips those entries when they
// are unchanged, and reads the file from its start when they are not. An entry is passed over
// when it is first read if its session has a chats/ file then; Gemini CLI writes both as the
// session starts, so a chats/ file deleted later (and read from dreamd's kept link) changes
// nothing of what logs.json gave.
const geminiLogsName = "logs.json"

func isGeminiLogs(path string) bool { return filepath.Base(path) == geminiLogsName }

// geminiLogEntry is one prompt of logs.json.
type geminiLogEntry struct {
	session string
	message string
	id      string // its messageId, for Seen's sum
	time    gjson.Result
}

func readGeminiLogs(f File, from Cursor) (Reading, error) {
	data, mtime, skipped, err := readWhole(f, "a whole-document transcript")
	if skipped != nil || err != nil {
		return orEmpty(skipped), err
	}
	p := newParse(f, Cursor{}, "")
	p.file.ModTime = mtime
	doc := geminiLogsDoc(data)
	entries, ok := parseGeminiLogs(doc)
	if !ok && doc != "" { // an empty file is a log not yet written
		p.warn(0, "malformed JSON (not an array of prompts), file skipped")
	}
	learnGeminiFolder(p)
	for _, session := range ownSessions(f, entries[geminiLogsResume(from.Seen, entries):]) {
		p.open(strings.Clone(session[0].session), parseTime(session[0].time))
		for _, e := range session {
			if geminiSlashCommand(e.message) {
				p.drop() // a command to Gemini CLI itself (/chat save, /quit), not words to the model
				continue
			}
			p.add(Turn{Role: User, Text: e.message, Time: parseTime(e.time)})
		}
	}
	p.end()
	if len(p.sessions) > 0 {
		p.session = p.sessions[0].ID // the cursor's: the file is routed by it next time
	}
	c, tail, err := docEnd(data, mtime)
	if err != nil {
		return Reading{}, err
	}
	c.Session, c.Project = p.session, p.project
	c.Seen = geminiLogsSeen(entries)
	return Reading{Sessions: p.sessions, Cursor: c, Warnings: p.warnings, Tail: tail}, nil
}

// peekGeminiLogs names the first session logs.json holds that has no chats/ file, else the file
// ("logs": it holds nothing of its own to read), and the project its folder names.
func peekGeminiLogs(f File) (string, string, error) {
	data, _, skipped, err := readWhole(f, "a whole-document transcript")
	if skipped != nil || err != nil {
		return "", "", err
	}
	entries, _ := parseGeminiLogs(geminiLogsDoc(data))
	id := stem(f.Path)
	if own := ownSessions(f, entries); len(own) > 0 {
		id = strings.Clone(own[0][0].session)
	}
	project := f.Project
	if project == "" {
		project = geminiProject(f.Path)
	}
	return id, project, nil
}

// geminiLogsDoc is the text of logs.json, without its byte order mark and the space around it.
// It may point into data.
func geminiLogsDoc(data []byte) string {
	return strings.TrimSpace(strings.TrimPrefix(view(data), sanitize.ByteOrderMark))
}

// ownSessions groups logged prompts by session, in the order each session first appears (two
// Gemini CLIs open in one folder log in turns), leaving out the sessions that have a chats/ file
// in f's folder: what logs.json holds of its own.
func ownSessions(f File, entries []geminiLogEntry) [][]geminiLogEntry {
	chats := geminiChatIDs(filepath.Dir(f.Path))
	var out [][]geminiLogEntry
	at := map[string]int{}
	for _, e := range entries {
		if chats[geminiShortID(e.session)] {
			continue // read from its chats/ file
		}
		i, ok := at[e.session]
		if !ok {
			i = len(out)
			at[e.session] = i
			out = append(out, nil)
		}
		out[i] = append(out[i], e)
	}
	return out
}

// parseGeminiLogs reads logs.json's prompts, in the file's order; ok is false when the document
// is not a JSON array. Entries of another type or without a session are left out.
func parseGeminiLogs(doc string) (entries []geminiLogEntry, ok bool) {
	if !gjson.Valid(doc) {
		return nil, false
	}
	r := gjson.Parse(doc)
	if !r.IsArray() {
		return nil, false
	}
	r.ForEach(func(_, e gjson.Result) bool {
		entry := geminiLogEntry{session: e.Get("sessionId").Str, message: e.Get("message").Str, id: e.Get("messageId").Raw, time: e.Get("timestamp")}
		if entry.session != "" && e.Get("type").Str == "user" {
			entries = append(entries, entry)
		}
		return true
	})
	return entries, true
}

// geminiChatIDs lists the sessions of a Gemini CLI folder that have a chats/ file, by the short id
// its name ends with (session-2026-12-01T23-39-79d82afb.jsonl: the session id's first 8 digits).
func geminiChatIDs(folder string) map[string]bool {
	des, err := os.ReadDir(filepath.Join(folder, "chats"))
	if err != nil {
		return nil
	}
	ids := map[string]bool{}
	for _, de := range des {
		name := de.Name()
		if de.IsDir() || !strings.HasPrefix(name, "session-") {
			continue
		}
		name = strings.TrimSuffix(strings.TrimSuffix(name, ".jsonl"), ".json")
		if i := strings.LastIndexByte(name, '-'); i >= 0 {
			ids[name[i+1:]] = true
		}
	}
	return ids
}

// geminiShortID is the part of a session id Gemini CLI names its chats/ file by.
func geminiShortID(id string) string {
	if len(id) > 8 {
		return id[:8]
	}
	return id
}

// geminiSlashCommand reports whether a logged prompt is one of Gemini CLI's slash commands, which
// it logs with the prompts but handles itself (its isSlashCommand: "/" but not a "//" or "/*"
// comment). A path typed as a prompt ("/src/app.ts is broken") has a slash again in its first word.
func geminiSlashCommand(text string) bool {
	if !strings.HasPrefix(text, "/") || strings.HasPrefix(text, "//") || strings.HasPrefix(text, "/*") {
		return false
	}
	first, _, _ := strings.Cut(text[1:], " ")
	return first != "" && !strings.ContainsAny(first, "/.\\")
}

// geminiLogsSeen is the Seen of logs.json read to its end: "geminilogs:<entries>:<sum of them>".
func geminiLogsSeen(entries []geminiLogEntry) string {
	return fmt.Sprintf("geminilogs:%d:%s", len(entries), geminiLogsSum(entries))
}

// geminiLogsResume is how many of logs.json's entries were read before: those Seen counts, when
// they are still the file's first entries; none otherwise.
func geminiLogsResume(seen string, entries []geminiLogEntry) int {
	rest, ok := strings.CutPrefix(seen, "geminilogs:")
	if !ok {
		return 0
	}
	count, sum, _ := strings.Cut(rest, ":")
	n, err := strconv.Atoi(count)
	if err != nil || n < 0 || n > len(entries) || geminiLogsSum(entries[:n]) != sum {
		return 0
	}
	return n
}

func geminiLogsSum(entries []geminiLogEntry) string {
	h := sha256.New()
	for _, e := range entries {
		// What an entry says, not how the file was indented.
		for _, field := range []string{e.session, e.id, e.time.Raw, e.message} {
			h.Write([]byte(field))
			h.Write([]byte{0})
		}
	}
	return hex.EncodeToString(h.Sum(nil)[:8])
}
