package offline

import (
	"slices"
	"strings"
	"time"

	"github.com/dreamd/dreamd/internal/extract"
	"github.com/dreamd/dreamd/internal/lazyre"
	"github.com/dreamd/dreamd/internal/reldate"
)

// sentence is a piece of a turn and the pieces joined to it by ';'.
type sentence []piece

// group ties each joined piece to the sentence before it.
func group(ps []piece) []sentence {
	var out []sentence
	for _, p := range ps {
		if p.joined && len(out) > 0 {
			out[len(out)-1] = append(out[len(out)-1], p)
			continue
		}
		out = append(out, sentence{p})
	}
	return out
}

// reader mines the user turns of one session in order. It remembers the sentences of the
// previous user turn that said no lesson, which a later "remember the rotation schedule" can
// point back to.
type reader struct {
	session *extract.Session
	ref     time.Time
	earlier []sentence
}

// turn returns the lessons of one user turn, in the order they were said.
func (r *reader) turn(text string) []*lesson {
	var (
		out   []*lesson
		loose []sentence // sentences of this turn that said no lesson
		last  *lesson    // the lesson the sentence before stated or went on with
	)
	for _, sn := range group(pieces(text)) {
		if flag, words, ok := backFlag(sn[0].text); ok && len(sn) == 1 {
			var picked []sentence
			picked, loose, r.earlier = pointedAt(words, loose, r.earlier)
			for _, p := range picked {
				lessons, _ := r.sentence(p, flag, nil)
				out = append(out, lessons...)
			}
			last = nil
			continue
		}
		lessons, tail := r.sentence(sn, "", last)
		out = append(out, lessons...)
		if tail == nil {
			loose = append(loose, sn)
		}
		last = tail
	}
	r.earlier = loose
	return out
}

// sentence returns the lessons one sentence states, and the lesson it ends on (nil when it
// neither states one nor goes on with one). A piece that states none may still go on with the
// lesson before it: "It runs the tests with -race; plain go test misses the race detector"
// explains the rule said just before, "…; ask him before changing src/payments" completes "Sam
// owns the payments module". flag applies to the first piece; last is the lesson of the sentence
// before, nil if none.
func (r *reader) sentence(sn sentence, flag string, last *lesson) (out []*lesson, tail *lesson) {
	cur := last
	for i, p := range sn {
		if i > 0 {
			flag = ""
		}
		pointsBack := i == 0 && explainer.MatchString(tidy(p.text)) || i > 0 && refersBack.MatchString(p.text)
		if cur != nil && pointsBack && r.continues(cur, p.text, i == 0) {
			tail = cur
			continue
		}
		if n, ok := parseFlagged(p.text, flag, r.session, r.ref); ok {
			out = append(out, n)
			cur, tail = n, n
			continue
		}
		if i == 0 {
			cur = nil // a sentence that is neither gives its clauses nothing to go on with
			continue
		}
		if cur != nil && r.continues(cur, p.text, false) {
			tail = cur
		}
	}
	return out, tail
}

var (
	// explainer opens a sentence that explains the one before: "It runs …", "They expect …",
	// "That's because …".
	explainer = lazyre.New(`(?i)^(?:(?:it|they)(?:'s|'re)?\s+\S|(?:this|that)(?:'s|\s+is)\s+(?:because|why|how|what)\b|(?:this|that)\s+(?:means|ensures|keeps|avoids|prevents|way)\b)`)
	// verdict is an opinion of the moment, not an explanation: "it's fine", "they look great".
	verdict = lazyre.New(`(?i)^\S+\s+(?:\S+\s+)?(?:great|good|fine|ok|okay|right|wrong|weird|strange|perfect|nice|cool|awesome|annoying|odd|works?|worked|broke|failed|best|worst|bad|better|worse|terrible|awful|ugly|hard|easy|simple|tricky|silly|funny|interesting|true|false|what|how|why)\b`)
	// chatter is small talk and the speaker's own doings, which go on with no lesson.
	chatter = lazyre.New(`(?i)\b(?:thanks|thank\s+you|cheers|lol|haha|sorry|i|me|my|i'm|i've|i'll)\b`)
	// request opens a clause that asks for work of the day: "remove the manual checks".
	request = lazyre.New(`(?i)^(?:please\s+)?(?:remove|delete|replace|fix|change|rename|move|revert|undo|drop|refactor|clean|convert|port|migrate|rewrite|try|look|see|open|close|add|bump|update|check|run|make|implement|finish|continue)\b`)
	// refersBack is a clause about something named before it: "ask him first", "it's in .gitignore".
	refersBack = lazyre.New(`(?i)\b(?:it|its|it's|them|they|they're|their|he|him|his|she|her|this|that|these|those)\b`)
)

// minExplanation is the fewest words of a sentence that explains a lesson: "It works." does not.
const minExplanation = 4

// continues adds text to n when it can go on with n: a sentence that explains n (explains), or
// a clause joined to n by ';'. What it adds must pass the screens a lesson passes, and a joined
// request of the day ("…; replace the eval") is not part of the lesson.
func (r *reader) continues(n *lesson, text string, explains bool) bool {
	text = tidy(scrubUserinfo(text))
	_, afterPronoun, _ := strings.Cut(text, " ")
	if chatter.MatchString(text) || explains && (len(strings.Fields(text)) < minExplanation || verdict.MatchString(text) ||
		leansOnContext(afterPronoun)) {
		return false
	}
	if !explains && (imperative.MatchString(text) || request.MatchString(text)) && !refersBack.MatchString(text) {
		return false
	}
	if text == "" || len(text) > maxSentence || isQuestion(text) || hasSecret(text) || isEphemeral(text) ||
		upcoming.MatchString(text) || !hasLetters(text) || notAboutTheTask.MatchString(text) || isBackFlag(text) {
		return false
	}
	if !r.ref.IsZero() {
		text = reldate.Rewrite(text, r.ref)
	}
	if n.typ == "user" || n.label == "I prefer …" {
		text = thirdPerson(text)
	}
	n.extend(text, explains)
	return true
}

// extend adds a clause to n: an explanation or a clause after one goes to its reason, any other
// clause to its rule.
func (n *lesson) extend(text string, explains bool) {
	text = strings.TrimRight(text, " .;,")
	n.sentence = strings.TrimRight(n.sentence, " .;,") + "; " + text
	switch {
	case explains && n.why == "":
		n.why = text
	case n.why != "":
		n.why = strings.TrimRight(n.why, " .;,") + "; " + text
	default:
		n.rule = strings.TrimRight(n.rule, " .;,") + "; " + text
	}
}

var (
	// flagThat flags what was just said: "Keep that in mind.", "Please remember that.".
	flagThat = lazyre.New(`(?i)^(?:(?:ok|okay|so|and|also|but|right|yes|yeah)[,\s]+)*((?:please\s+)?(?:remember|note|memori[sz]e|don't\s+forget|do\s+not\s+forget)\s+(?:that|this|it|these|those)|(?:please\s+)?keep\s+(?:that|this|it|these|those)\s+in\s+mind|(?:make|take)\s+a\s+note\s+of\s+(?:that|this|it)|(?:that's|that\s+is|this\s+is)\s+(?:worth\s+remembering|important\s+to\s+remember|good\s+to\s+know))(?:\s+(?:too|as\s+well|please|for\s+(?:next\s+time|later|the\s+future)|going\s+forward))*[\s.!]*$`)
	// flagThe flags what was said about a thing: "Remember the rotation schedule.".
	flagThe = lazyre.New(`(?i)^(?:(?:ok|okay|so|and|also|but|right|yes|yeah)[,\s]+)*((?:please\s+)?(?:remember|note|don't\s+forget|do\s+not\s+forget|keep)\s+(?:the|our|those|these))\s+([\w./-]+(?:\s+[\w./-]+){0,3}?)(?:\s+in\s+mind)?(?:\s+(?:too|as\s+well|please|for\s+next\s+time))?[\s.!]*$`)
	// verbWord tells a statement ("remember the tests are slow") from a thing.
	verbWord = lazyre.New(`(?i)\b(?:is|are|was|were|has|have|had|must|should|can|will|would|needs?|runs?|goes|uses?|lives?|don't|doesn't)\b`)
)

// backFlag reports whether s flags something said before rather than saying it: the flag as
// typed, and the words of the thing it names ("rotation schedule"), none for "that".
func backFlag(s string) (flag string, words []string, ok bool) {
	s = tidy(s)
	if m := flagThat.FindStringSubmatch(s); m != nil {
		return strings.ToLower(m[1]), nil, true
	}
	if m := flagThe.FindStringSubmatch(s); m != nil && !verbWord.MatchString(m[2]) {
		return strings.ToLower(m[1]), keyWords(m[2]), true
	}
	return "", nil, false
}

func isBackFlag(s string) bool {
	_, _, ok := backFlag(s)
	return ok
}

// pointedAt picks the sentences a back flag points at and returns what is left loose. "That"
// points at the sentence just before, in the same turn; a named thing at every loose sentence of
// this turn or the previous one that names it ("rotation" in "keys rotate every 90 days").
func pointedAt(words []string, loose, earlier []sentence) (picked, restLoose, restEarlier []sentence) {
	if words == nil {
		if len(loose) == 0 {
			return nil, loose, earlier
		}
		return loose[len(loose)-1:], loose[:len(loose)-1], earlier
	}
	keep := func(list []sentence) []sentence {
		return slices.DeleteFunc(slices.Clone(list), func(sn sentence) bool {
			if names(sn, words) {
				picked = append(picked, sn)
				return true
			}
			return false
		})
	}
	restEarlier = keep(earlier)
	restLoose = keep(loose)
	return picked, restLoose, restEarlier
}

// stemLen is how many leading letters two words must share to name the same thing ("rotation",
// "rotate").
const stemLen = 5

// keyWords are the words of s that can name a thing: four letters or more.
func keyWords(s string) []string {
	var out []string
	for _, w := range keyToken.FindAllString(strings.ToLower(s), -1) {
		if len(w) >= 4 && !keyDrop[w] {
			out = append(out, stem(w))
		}
	}
	return out
}

func stem(w string) string {
	if len(w) > stemLen {
		return w[:stemLen]
	}
	return w
}

// names reports whether a sentence names one of words.
func names(sn sentence, words []string) bool {
	for _, p := range sn {
		for _, w := range keyWords(p.text) {
			if slices.Contains(words, w) {
				return true
			}
		}
	}
	return false
}
