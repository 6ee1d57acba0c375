package offline

import (
	"fmt"
	"strings"
	"time"

	"github.com/dreamd/dreamd/internal/extract"
	"github.com/dreamd/dreamd/internal/lazyre"
)

// A prohibition said once ("don't use Chart.js") is a request for the task at hand; the same
// prohibition said again, in another message or session, is a constraint the person holds.

// prohibition is a bare "don't …" the English rules keep only when flagged or correcting.
// It must name what not to do to what ("don't use Chart.js"), not a mood ("don't worry", "never mind").
var prohibition = lazyre.New(`(?i)^(?:please\s+)?(?:don't|do\s+not|dont|never|avoid)\s+(?:ever\s+)?(?:use|using|add|adding|edit|change|modify|touch|commit|push|run|call|import|install|create|delete|remove|write|put|mock|hardcode|hard-code|rely|introduce|bump|upgrade|downgrade|rename|reformat|format|skip|disable)\s+\S`)

// saying is where a prohibition was first said.
type saying struct {
	session *extract.Session
	message int
}

// repeated returns the prohibitions of a user turn that an earlier message said too, as lessons
// naming both; the others are remembered in said for the messages to come.
func repeated(text string, said map[string]saying, s *extract.Session, message int, ref time.Time) []*lesson {
	var out []*lesson
	for _, p := range pieces(text) {
		sentence := tidy(p.text)
		if !prohibition.MatchString(sentence) || isQuestion(sentence) {
			continue
		}
		key := strings.Join(keyWords(sentence), " ")
		if key == "" {
			continue
		}
		first, ok := said[key]
		if !ok {
			said[key] = saying{session: s, message: message}
			continue
		}
		if first.session == s && first.message == message {
			continue
		}
		n, ok := parseFlagged(sentence, "said again", s, ref)
		if !ok {
			continue
		}
		n.message = message
		n.basis = fmt.Sprintf("said by the person in their %s message of %s and again in their %s message of %s",
			ordinal(first.message), sessionOn(first.session), ordinal(message), sessionOn(s))
		if first.session.ID != s.ID {
			n.also = []string{first.session.ID}
		}
		out = append(out, n)
	}
	return out
}
