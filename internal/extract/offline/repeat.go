package offline

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/dreamd/dreamd/internal/extract"
	"github.com/dreamd/dreamd/internal/lazyre"
	"github.com/dreamd/dreamd/internal/memory"
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
	out := repeatedCJK(text, said, s, message)
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

// cjkProhibition is a prohibition in Chinese or Japanese: "不要用 Chart.js", "别再改 go.mod 了",
// "Chart.js は使わないで". The same prohibition is the same thing forbidden however it is said, so
// it is keyed by the names it forbids (Chart.js, go.mod), not by its words.
var (
	cjkProhibition = lazyre.New(`(?:不要|别|別|请勿|請勿|禁止|不许|不許|不准|千万别|千萬別)(?:再)?(?:用|使用|改|修改|动|動|碰|提交|加|添加|引入|装|裝|安装|安裝)|(?:使わないで|使用しないで|しないで|変更しないで|触らないで|入れないで)`)
	latinName      = lazyre.New(`[A-Za-z][A-Za-z0-9_+-]*(?:\.[A-Za-z0-9_+-]+)*`)
)

// repeatedCJK is repeated for prohibitions said in Chinese or Japanese: the second message that
// forbids the same names (in any wording) makes the lesson.
func repeatedCJK(text string, said map[string]saying, s *extract.Session, message int) []*lesson {
	var out []*lesson
	for _, line := range proseLines(text) {
		for _, sentence := range splitLang(line) {
			st := tidy(stripOpeners(sentence))
			if st == "" || len(st) > maxSentence || isQuestion(st) || strings.HasSuffix(st, "？") || dayWords.MatchString(st) || !cjkProhibition.MatchString(st) {
				continue
			}
			var names []string
			for _, n := range latinName.FindAllString(st, -1) {
				names = append(names, strings.ToLower(n))
			}
			if len(names) == 0 {
				continue
			}
			slices.Sort(names)
			key := "cjk\x00" + strings.Join(slices.Compact(names), " ")
			first, ok := said[key]
			if !ok {
				said[key] = saying{session: s, message: message}
				continue
			}
			if first.session == s && first.message == message {
				continue
			}
			rule := strings.TrimRight(st, "。！!.")
			n := &lesson{typ: memory.Feedback, label: "said again", rule: rule, sentence: rule, core: rule, session: s, message: message, lang: "zh"}
			if kana.MatchString(st) {
				n.lang = "ja"
			}
			n.facts = factsOf(rule)
			n.basis = fmt.Sprintf("said by the person in their %s message of %s and again in their %s message of %s",
				ordinal(first.message), sessionOn(first.session), ordinal(message), sessionOn(s))
			if first.session.ID != s.ID {
				n.also = []string{first.session.ID}
			}
			out = append(out, n)
		}
	}
	return out
}
