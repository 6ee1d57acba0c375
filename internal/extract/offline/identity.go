package offline

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/dreamd/dreamd/internal/extract"
	"github.com/dreamd/dreamd/internal/lazyre"
	"github.com/dreamd/dreamd/internal/memory"
	"github.com/dreamd/dreamd/internal/transcript"
)

// The git identity the person gives ("用户名是886caigudong邮箱是…", "commit with name thuanpv
// and email is thuanpv@yrism.com") is what the agent then sets or commits with: a name or an
// email the person wrote that a `git config user.name` or a `git commit --author` which worked
// carries is how this project's commits are authored. One the agent found on its own (read from
// git log, made up) is not the person's word, and is not kept.

var (
	// gitConfigIdentity is `git config [--global|--local] user.name "X"` (or user.email).
	gitConfigIdentity = lazyre.New(`\bgit\s+config\s+(?:(--global|--local)\s+)?user\.(name|email)\s+("[^"]+"|'[^']+'|[^\s;&|]+)`)
	// placeholderEmail is an address no one receives mail at: a domain kept for examples, a
	// machine's own name (jules@raspberrypi, jules@raspberrypi.local).
	placeholderEmail = lazyre.New(`(?i)[\w.+-]@(?:(?:[\w-]+\.)*(?:example\.(?:com|org|net)|test\.com|localhost|[\w-]+\.(?:local|localdomain|lan|home|internal))|[\w-]+)(?:["'\s>]|$)`)
	// gitAuthor is `git commit … --author="Name <email>"`.
	gitAuthor = lazyre.New(`\bgit\s+(?:-C\s+\S+\s+)?commit\b.*?--author[= ]("[^"]+"|'[^']+')`)
)

// identityLesson returns the lesson of the git identity the session's calls set or committed
// with, when the person wrote it before: nil when there is none.
func identityLesson(s *extract.Session, calls []call) *lesson {
	var name, email, how string
	global := false
	for _, c := range calls {
		if c.failed {
			continue
		}
		if placeholderEmail.MatchString(c.command) {
			continue // "jules@example.com": an identity the agent made up to get a commit through
		}
		for _, m := range gitConfigIdentity.FindAllStringSubmatch(c.command, -1) {
			value := strings.Trim(m[3], `"'`)
			if !personWrote(s.Turns, c.turn, value) {
				continue
			}
			if m[2] == "name" {
				name = value
			} else {
				email = value
			}
			global = global || m[1] == "--global"
			how = "`" + strings.Join(strings.Fields("git config "+m[1]+" user."+m[2]), " ") + "`"
		}
		if m := gitAuthor.FindStringSubmatch(c.command); m != nil {
			author := strings.Trim(m[1], `"'`)
			n, e, _ := strings.Cut(author, "<")
			n, e = strings.TrimSpace(n), strings.TrimSuffix(strings.TrimSpace(e), ">")
			if personWrote(s.Turns, c.turn, n) || e != "" && personWrote(s.Turns, c.turn, e) {
				name, email, how = n, e, "`git commit --author`"
			}
		}
	}
	if name == "" && email == "" {
		return nil
	}
	who := strings.TrimSpace(name + " <" + email + ">")
	switch {
	case email == "":
		who = name
	case name == "":
		who = "<" + email + ">"
	}
	where := "in this project"
	if global {
		where = "on this machine"
	}
	rule := fmt.Sprintf("Git commits %s are authored as `%s`", where, who)
	basis := fmt.Sprintf("the person gave that identity and the agent set it with %s, which worked, in %s", how, sessionOn(s))
	return evidenceLesson(memory.Project, rule, basis, "the person's git identity, set", s)
}

// personWrote reports whether one of the person's turns before the turn at holds value as a
// word of its own: "jules" in /home/jules/infra is a path's, not a name they gave.
func personWrote(turns []extract.Turn, at int, value string) bool {
	if len(value) < 3 {
		return false
	}
	value = strings.ToLower(value)
	for _, t := range turns[:at] {
		if t.Role != transcript.User {
			continue
		}
		text := strings.ToLower(t.Text)
		for i := strings.Index(text, value); i >= 0; {
			before, _ := utf8.DecodeLastRuneInString(text[:i])
			after, _ := utf8.DecodeRuneInString(text[i+len(value):])
			if !nameRune(before) && !nameRune(after) {
				return true
			}
			next := strings.Index(text[i+1:], value)
			if next < 0 {
				break
			}
			i += 1 + next
		}
	}
	return false
}

// nameRune reports whether r would run on from a name: a letter, a digit, a path's slash.
func nameRune(r rune) bool {
	return r != utf8.RuneError && (unicode.IsLetter(r) && r < unicode.MaxLatin1 || unicode.IsDigit(r) || strings.ContainsRune(`/\_-.@`, r))
}
