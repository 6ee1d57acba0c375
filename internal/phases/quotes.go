package phases

import (
	"cmp"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/dreamd/dreamd/internal/extract"
	"github.com/dreamd/dreamd/internal/redact"
	"github.com/dreamd/dreamd/internal/sanitize"
	"github.com/dreamd/dreamd/internal/textsim"
	"github.com/dreamd/dreamd/internal/transcript"
)

// quotes.go keeps, for each operation of a plan, a few of the person's own words from its
// evidence sessions: what a reviewer reads to judge the lesson, since a plan keeps no turns. They
// are picked while the pass still holds the digest, by similarity to the operation's text, from
// the digest's user turns, which are redacted (and swept of every secret value found) before
// anything is picked.

// Quote is a short excerpt of a person's turn that supports an operation.
type Quote struct {
	Kind    string    `json:"kind"`    // the session's agent (adapter kind)
	Session string    `json:"session"` // the session's id, as the digest names it
	Turn    int       `json:"turn"`    // the turn's index in the session as the pass read it (extract.Turn.Index)
	Date    time.Time `json:"date"`    // when the turn was said (the session's date when unknown)
	Text    string    `json:"text"`    // at most QuoteMaxRunes runes, on one line; "…" marks a cut
}

// MaxQuotes is how many quotes an operation keeps; QuoteMaxRunes how long each may be.
const (
	MaxQuotes     = 3
	QuoteMaxRunes = 200
)

// quoteMinShare is the least share of the best turn's score another turn needs to be quoted too.
const quoteMinShare = 0.5

// pickQuotes chooses each operation's quotes (by the name of the memory it writes, as
// OperationNames gives it) from the user turns of the sessions its evidence names: those sharing
// the most of the operation's rarer words first, at most MaxQuotes and none scoring under
// quoteMinShare of the best, each cut to QuoteMaxRunes
// around the first word it shares. A turn sharing no word is no support and is never quoted. The
// text is swept once more of the values known to be secrets (known, nil: none) and redacted by r
// (nil: not), so a cut never leaves a piece of one.
func pickQuotes(ops []extract.Operation, sessions []extract.Session, known *redact.Known, r *redact.Redactor) map[string][]Quote {
	byID := map[string][]int{}
	for i, s := range sessions {
		byID[s.ID] = append(byID[s.ID], i)
		byID[s.Source+":"+s.ID] = append(byID[s.Source+":"+s.ID], i)
	}
	sets := map[[2]int]textsim.Set{} // turn words, computed once for every operation
	var out map[string][]Quote
	for _, op := range ops {
		query := textsim.Counts(opText(op))
		if len(query) == 0 {
			continue
		}
		type candidate struct {
			session, turn int
			set           textsim.Set
		}
		var cands []candidate
		seen := map[int]bool{}
		for _, id := range op.Evidence {
			for _, si := range byID[id] {
				if seen[si] {
					continue
				}
				seen[si] = true
				for ti, t := range sessions[si].Turns {
					if t.Role != transcript.User {
						continue
					}
					key := [2]int{si, ti}
					set, ok := sets[key]
					if !ok {
						set = textsim.NewSet(t.Text)
						sets[key] = set
					}
					cands = append(cands, candidate{si, ti, set})
				}
			}
		}
		if len(cands) == 0 {
			continue
		}
		docs := make([]textsim.Set, len(cands))
		for i, c := range cands {
			docs[i] = c.set
		}
		df := textsim.NewDocFreq(docs)
		scores := make([]float64, len(cands))
		for i, c := range cands {
			scores[i] = textsim.Relevance(c.set, query, df)
		}
		order := make([]int, len(cands))
		for i := range order {
			order[i] = i
		}
		// Best first; equal scores keep the digest's order (oldest session, earliest turn).
		slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(scores[b], scores[a]) })
		var quotes []Quote
		best := scores[order[0]]
		for _, i := range order {
			// A turn sharing far less than the best one shares a word or two by chance.
			if scores[i] <= 0 || scores[i] < best*quoteMinShare || len(quotes) == MaxQuotes {
				break
			}
			s, t := sessions[cands[i].session], sessions[cands[i].session].Turns[cands[i].turn]
			text := excerpt(sanitize.Line(t.Text), query)
			if known != nil {
				text, _ = known.Sweep(text)
			}
			if r != nil {
				text, _ = r.Redact(text)
			}
			quotes = append(quotes, Quote{Kind: s.Source, Session: s.ID, Turn: t.Index, Date: cmp.Or(t.Time, s.Date).UTC(), Text: text})
		}
		if len(quotes) == 0 {
			continue
		}
		if out == nil {
			out = map[string][]Quote{}
		}
		out[op.Name] = append(out[op.Name], quotes...)
	}
	return out
}

// opText is what an operation says, for matching turns against: what it writes, or, for a
// deletion, why.
func opText(op extract.Operation) string {
	if op.Action == extract.Delete {
		return op.Reason
	}
	return op.Description + "\n" + op.Body
}

// excerpt is text on one line, cut to QuoteMaxRunes runes at word boundaries: from a few words
// before the first word query holds, "…" where the text goes on.
func excerpt(text string, query map[string]int) string {
	words := strings.Fields(text)
	first := 0
	for i, w := range words {
		if slices.ContainsFunc(textsim.Words(w), func(n string) bool { return query[n] > 0 }) {
			first = i
			break
		}
	}
	start := max(0, first-5)
	var b strings.Builder
	if start > 0 {
		b.WriteString("…")
	}
	n := utf8.RuneCountInString(b.String())
	for i := start; i < len(words); i++ {
		w := words[i]
		sep := 0
		if i > start {
			sep = 1
		}
		if n+sep+utf8.RuneCountInString(w)+1 > QuoteMaxRunes { // room for the closing "…"
			if i == start { // one word longer than a quote: its start
				w = string([]rune(w)[:QuoteMaxRunes-n-1])
				b.WriteString(w)
			}
			b.WriteString("…")
			return b.String()
		}
		if sep == 1 {
			b.WriteByte(' ')
		}
		b.WriteString(w)
		n += sep + utf8.RuneCountInString(w)
	}
	return b.String()
}
