// Package offline is the consolidator dreamd uses when no LLM endpoint is configured: no network,
// deterministic. It mines the lessons people state explicitly in their own turns ("remember
// that …", "from now on …", "always / never …", "we migrated from X to Y", "I'm a …", "our X
// follow …", "X must …"), flagged before or after they are said ("… Keep that in mind."), with
// the sentences that explain them, keeps one memory per lesson across sessions and against the
// store, and lets newer statements replace the facts they contradict.
//
// It also keeps what the work established (evidence.go): a test, lint, build, type-check,
// migration or start command that worked in the project (with the directory it ran
// in), the program that replaced one the shell did not have (`python` not found, `python3`
// worked) or that it had not at all (`shellcheck`), the same command written another way that
// worked right after it failed, with nothing edited between, an option this machine's program
// refused and a glob its shell did not match (fixed.go: `node d:\x.js` failed, `node /d/x.js`
// worked), the git identity the person gave that a call then set (identity.go), and the person's
// answers to the agent's questions that name what they chose (a library, a language, an option:
// most answers are the day's, "all of them", "Taipei"), in the agent's question tool or typed
// against the numbered questions of its reply or the options table of Spec Kit's clarify step
// (numbered.go); a deploy command that worked, and a
// command that worked again with sudo; a project command the person ran themselves with Aider's
// /run in two sessions; the language the person asks to be answered in, and the one the
// project's documents are to be written in (replylang.go), else the language most of their
// messages in the project are written in, when it is not English (writing.go); how they want to
// be answered, once two messages asked for it (manner.go); a program not installed is forgotten
// once a later session ran it, and not written when an earlier one did;
// a bare prohibition ("don't use Chart.js") the person said in two messages, a thing they
// asked in two messages, in other words, to keep as it is, and a rule they say they are
// repeating ("Again, …") (repeat.go); and a standing instruction, a clause of the person's own in
// any language that says what to do or how to work and that they append to different requests
// in three messages of a project or in its sessions of two days ("… use context7", "Parle-moi en
// français.", "先别写代码，先分析原因。"), kept once every session is read with the messages that
// said it (standing.go); and a rule said by what it covers, in the languages the rules read
// (scoped.go): every time the agent does a kind of thing ("à chaque fois que tu fais une
// modification, …"), all of a kind the work makes ("todas las apis que hagas…"), the whole
// project, nothing without the person's consent ("Без моего подтверждения…"), what the person
// means by a word, a name that changed, and, in Chinese, a rule asked to be written into the
// agent's global instructions, which goes to the user's store (帮我写进codex的全局，…). Of tool
// turns only the command lines the agent ran and whether their
// results reported an error are read: no assistant text or tool output ever becomes a memory,
// since tool output is where injected instructions live. Facts the person stated about the
// project's layout and environment (stated.go: "the tests are in tests/", "we are in a TPU VM",
// "I renamed X to Y") are kept in any language the rules read, and a session in a language they
// do not read is named in the summary. Facts carried by names the same in every language are
// kept from inside a request too, written from the names (stack.go): the frameworks, libraries
// and databases of a table of well-known names the project uses or a request sets it up with
// ("本项目前端使用Next.js 15、shadcn，数据库使用Supabase，请…"), the platform it is deployed on, and which environment
// variables a config file sets (names only, never a value), with the agent's calls in the
// session that confirm them in the basis. Lines of the agent's reply pasted back into the
// person's message are the agent's words, a letter pasted in (a buyer's request) is its
// writer's, and a chatbot's answer copied after "ChatGPT said:" the bot's: none is read
// (quoted.go). A long message that states many rules at once is a pasted document (a prompt
// template, a task spec), not lessons, and is skipped, and so is a program's generated message
// that carries the person's request in a JSON block, a custom slash command's prompt file and the
// agent cast in a role; a session that reaches the pass twice under one ID is read once; what a pasted command printed under its
// prompt, an app's error and a company's announcement are not read (prose.go); an answer the
// person's next message says does not work is not kept.
package offline

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/dreamd/dreamd/internal/extract"
	"github.com/dreamd/dreamd/internal/lazyre"
	"github.com/dreamd/dreamd/internal/memory"
	"github.com/dreamd/dreamd/internal/transcript"
)

// Consolidator is the offline extract.Consolidator.
type Consolidator struct{}

var _ extract.Consolidator = (*Consolidator)(nil)

// New returns the offline consolidator.
func New() *Consolidator { return &Consolidator{} }

// tally counts what a run read, for its summary.
type tally struct {
	sessions, turns, statements, injected int
	evidence                              int                      // lessons the session's tool turns established
	pasted                                int                      // turns that read as pasted instructions, their statements skipped
	unread                                []string                 // per session skipped, the script no rule reads
	said                                  map[string]saying        // prohibitions said once so far, by their key words
	guards                                map[string][]guardSaying // what the person asked to keep as it is, by project
	runs                                  personRuns               // project commands the person ran themselves (Aider's /run)
	messages                              []personMessage          // the person's messages read, for the clauses they say again and again (standing.go)
	agent                                 agentWords               // the agent's turns of each session, keyed once for quoted.go and standing.go
	worked                                map[string]bool          // the programs the sessions read so far ran and that worked
}

// Consolidate mines req's sessions, oldest first, and returns the operations that bring the
// store up to date with what the user stated. It fails only when ctx is done.
func (c *Consolidator) Consolidate(ctx context.Context, req extract.Request) (extract.Result, error) {
	sessions := slices.Clone(req.Sessions)
	// Later sessions win a contradiction, so they are read last; ties keep their given order.
	slices.SortStableFunc(sessions, func(a, b extract.Session) int { return a.Date.Compare(b.Date) })
	sessions = withoutCopies(sessions)
	l := newLedger(slices.Clone(req.Memories))
	t := tally{said: map[string]saying{}, guards: map[string][]guardSaying{}, runs: personRuns{}, agent: agentWords{}, worked: map[string]bool{}}
	for i := range sessions {
		if err := ctx.Err(); err != nil {
			return extract.Result{}, err
		}
		t.read(l, &sessions[i], refDate(sessions[i], req.Today))
	}
	// A standing instruction is known only once it has recurred: after every session is read.
	for _, n := range standingLessons(standingInstructions(t.messages, t.agent)) {
		if personaPrompt.MatchString(n.rule) {
			continue
		}
		t.statements++
		if e := l.sameLink(n); e != nil {
			l.reinforce(e, n)
			continue
		}
		l.add(n)
	}
	for _, n := range []*lesson{writtenLanguageLesson(t.messages), mannerLesson(t.messages)} {
		if n != nil {
			t.statements++
			l.add(n)
		}
	}
	ops := scoped(l.operations(), req)
	return extract.Result{
		Response: extract.Response{Summary: summary(t, l, ops), Operations: ops},
		Model:    "offline",
		Offline:  true,
	}, nil
}

// withoutCopies keeps one session of those that share an ID, the one with the most turns: a
// session exported twice (SpecStory writes a chat again under another file name) is one session,
// and what it says once is not said again.
func withoutCopies(sessions []extract.Session) []extract.Session {
	longest := map[string]int{}
	for i, s := range sessions {
		if j, ok := longest[s.ID]; !ok || len(s.Turns) >= len(sessions[j].Turns) {
			longest[s.ID] = i
		}
	}
	out := sessions[:0:0]
	for i, s := range sessions {
		if longest[s.ID] == i {
			out = append(out, s)
		}
	}
	return out
}

// refDate is when a session's statements were made, for absolute dates.
func refDate(s extract.Session, today time.Time) time.Time {
	if !s.Date.IsZero() {
		return s.Date
	}
	return today
}

// read folds the lessons of one session's user turns into l.
func (t *tally) read(l *ledger, s *extract.Session, ref time.Time) {
	t.sessions++
	r := reader{session: s, ref: ref}
	message := 0
	unread := ""       // a script of the session's turns no rule reads
	var held []*lesson // the person's answers of the message before, until the next one
	help := false      // inside the /help prompt of an Aider that logged each of its lines apart
	reply := ""        // the agent's words since the person's last message
	for i, turn := range s.Turns {
		if turn.Role != transcript.User {
			help = false
			if turn.Role == transcript.Assistant {
				reply += turn.Text + "\n"
			}
			continue
		}
		asked := reply
		reply = ""
		t.turns++
		message++
		help = help || s.Source == aiderSource && strings.HasPrefix(turn.Text, aiderHelpQuestion)
		if help || injected(turn.Text) || generated(turn.Text) {
			t.injected++
			r.earlier = nil // nothing of an injected turn can be flagged later
			continue
		}
		text, answers, _ := strings.Cut(turn.Text, answersLabel)
		text = withoutBotAnswer(text)
		m := personMessage{session: s, message: message, turn: i, at: turn.Time, text: text}
		t.messages = append(t.messages, m)
		text = withoutLetters(withoutAgentLines(text, t.agent, m))
		if switchedTool(text) {
			l.switchedAway(s)
		}
		lessons := r.turn(text)
		lessons = append(lessons, languageLessons(noteText(text, s), s)...)
		stack := stackLessons(text, s, message)
		lessons = append(lessons, withoutRestated(statedLessons(text, s), stack)...)
		lessons = append(lessons, unsaid(stack, lessons)...)
		lessons = append(lessons, repeated(text, t.said, s, message, ref)...)
		lessons = append(lessons, repeatedGuard(text, t.guards, s, message)...)
		lessons = append(lessons, saidBefore(text, s, message, ref)...)
		lessons = withReplyLanguage(lessons, text, s)
		if n := addressLesson(text, s); n != nil {
			lessons = append(lessons, n)
		}
		if script := unreadScript(text); script != "" {
			unread = script
		} else if lang := unreadLatin(text); lang != "" {
			unread = lang
		}
		// An answer is kept once the next message has not said that what was chosen fails.
		if len(held) > 0 && !failedChoice.MatchString(text) {
			lessons = append(lessons, held...)
		}
		held = nil
		if answers != "" {
			held = answerLessons(answersLabel+answers, s, message)
		}
		held = append(held, typedAnswers(text, asked, s, message)...)
		if n := tableAnswer(text, asked, s, message); n != nil {
			held = append(held, n)
		}
		if n := bulletAnswer(text, asked, s, message); n != nil {
			held = append(held, n)
		}
		if s.Source == rememberSource {
			lessons = remembered(turn.Text, lessons, s, ref)
		}
		if s.Source == aiderSource {
			lessons = standing(lessons)
			if n := t.runs.ranAgain(turn.Text, s); n != nil && !l.names(n.command) {
				t.evidence++
				n.message = message
				l.add(n)
			}
		}
		if pastedInstructions(text, lessons) || stepList(text) {
			t.pasted++
			r.earlier = nil
			lessons = slices.DeleteFunc(lessons, func(n *lesson) bool { return n.basis == "" })
		}
		lessons = slices.DeleteFunc(lessons, func(n *lesson) bool { return n.basis == "" && personaPrompt.MatchString(n.rule) })
		for _, n := range lessons {
			t.statements++
			if n.message == 0 {
				n.message = message
			}
			l.add(n)
		}
	}
	for _, n := range held {
		t.statements++
		l.add(n)
	}
	if unread != "" {
		t.unread = append(t.unread, unread)
	}
	calls := shellCalls(s.Turns)
	worked := workedPrograms(calls)
	l.installedSince(worked, s)
	for _, n := range commandLessons(s, calls) {
		// A program an earlier session ran is there, in another of the machine's shells (Codex on
		// Windows runs pwsh and bash): its "not installed" is one shell's, no lesson.
		if n.command != "" && l.names(n.command) || n.missing != "" && t.worked[n.missing] {
			continue
		}
		t.evidence++
		l.add(n)
	}
	for prog := range worked {
		t.worked[prog] = true
	}
}

// A person states a lesson or two in a message; a long message that states many is a document
// they pasted (a prompt template, a task spec, a swarm's generated instructions), whose rules are
// for the task it was written for, and often not the person's words at all.
const (
	pastedLength     = 1500 // characters of a message long enough to be a pasted document
	pastedStatements = 4    // statements in one such message that make it read as one
)

// pastedInstructions reports whether a user message reads as pasted instructions: long, and
// stating many rules at once. Lessons the work established (an answer, said again) still count.
func pastedInstructions(text string, lessons []*lesson) bool {
	if len(text) < pastedLength {
		return false
	}
	stated := 0
	for _, n := range lessons {
		if n.basis == "" {
			stated++
		}
	}
	return stated >= pastedStatements
}

// stepLabel opens a paragraph of a task written as labelled steps: "Identification : …",
// "Mise à jour Docker :", "Step 2:", "**Setup**:", "环境准备：".
var stepLabel = lazyre.New(`(?m)^[ \t>*#-]*(?:\d+[.)]\s*)?\**[\p{L}][\p{L}\p{N}./'’ -]{0,40}?\**\s?[:：]\**(?:\s|$)`)

// minStepLabels is how many labelled paragraphs make a message a list of steps.
const minStepLabels = 3

// stepList reports whether a message is a task written out as labelled steps (often one a model
// drafted and the person pasted): its "Important : utilise les options nofail" and "(Note : les
// valeurs peuvent varier)" are how this task is done, not rules for the next one.
func stepList(text string) bool {
	return len(stepLabel.FindAllStringIndex(text, minStepLabels)) >= minStepLabels
}

// failedChoice is the person saying what they just chose does not work: "does not work", "also
// conflicts", "no funciona", "不行".
var failedChoice = lazyre.New(`(?i)^\W*(?:(?:it|that|this|still|also)\s+)*(?:does\s*n[o']?t\s+work|doesn't\s+work|is\s*n[o']?t\s+working|not\s+working|(?:also\s+)?conflicts?\b|ça\s+(?:ne\s+)?marche\s+pas|(?:ça\s+)?ne\s+(?:marche|fonctionne)\s+pas|no\s+funciona|sigue\s+sin\s+funcionar|não\s+funciona|funktioniert\s+nicht|werkt\s+niet|không\s+(?:chạy|được|hoạt\s+động)|不行|没用|不管用|不起作用|動かない|うまくいかない)`)

// aiderSource is Aider's: every message of its code mode asks for an edit now.
const aiderSource = "aider"

// aiderHelpQuestion opens the prompt Aider's /help builds (the question, then the docs it
// retrieved). Aider 0.5x logged each line of a message as an input of its own, so the prompt
// reaches here as many user turns, up to Aider's reply.
const aiderHelpQuestion = "# Question:"

// standingRule is how a rule says it holds beyond the request at hand: always / never, a
// preference, or a lesson the person flagged (remember that, from now on, FYI, …).
var standingRule = lazyre.New(`(?i)^(?:always|never|don't ever|do not ever|dont ever|we always|we never|i prefer|remember|don't forget|do not forget|from now on|going forward|moving forward|in (?:the )?future|from here on|henceforth|starting|by default|note|nb|fyi|for your information|for the record|just so you know|for future|for next time|for the future|for later|keep in mind|bear in mind|lesson|rule|tip|decision|decided|said again|asked again)\b`)

// standing keeps, of an Aider message's lessons, the facts and the rules that say they stand: in
// Aider a bare "use X instead of Y" or "don't mock Z" is how an edit is asked for, not a habit to
// keep. A rule in another language already opened with a cue that says it stands (lang.go), or
// corrected the agent.
func standing(lessons []*lesson) []*lesson {
	return slices.DeleteFunc(lessons, func(n *lesson) bool {
		return n.typ == memory.Feedback && n.lang == "" && !standingRule.MatchString(n.label)
	})
}

// rememberSource is the source of notes queued by `dreamd remember`.
const rememberSource = "remember"

// noteText is what a queued note says, without the English words that queue it ("Remember this
// (as a feedback memory): "), for the rules of other languages: "帮我写进codex的全局，…" is the
// person's sentence, not "Remember this …: 帮我写进…". Any other turn's text is as it is.
func noteText(text string, s *extract.Session) string {
	if s.Source != rememberSource {
		return text
	}
	if m := rememberedHint.FindString(text); m != "" {
		return text[len(m):]
	}
	return strings.TrimPrefix(text, "Remember this: ")
}

// ownWords are the openings of the memories this package writes of what the person asked of
// the agent itself (replylang.go), as a project's pass sends them on to the user's store.
var ownWords = lazyre.New(`^(?:Answer the person in \S|Call the person \S)`)

// rememberedHint is how a queued note names the type the person asked for.
var rememberedHint = lazyre.New(`^Remember this \(as an? (user|feedback|project|reference) memory\): `)

// remembered makes sure a note queued with `dreamd remember` becomes a memory: the person asked for
// it in so many words, so a note none of the phrasing rules recognises is kept as it was said, and
// the type they gave wins over the one guessed.
func remembered(text string, found []*lesson, s *extract.Session, ref time.Time) []*lesson {
	var typ memory.Type
	if m := rememberedHint.FindStringSubmatch(text); m != nil {
		typ = memory.Type(m[1])
	}
	note := noteText(text, s)
	if ownWords.MatchString(note) {
		// A memory a project's pass sent on, in the words this package writes ("Answer the person
		// in English (they asked: …)"): it is the lesson as it is, not a request to read again.
		rule := note
		if i := strings.Index(rule, "Source: "); i > 0 {
			rule = rule[:i] // where the project's pass found it: carriedBasis, below
		}
		rule = strings.TrimRight(rule, ". \n")
		n := &lesson{typ: memory.User, label: "remember …", rule: rule, sentence: rule, core: rule, session: s}
		n.facts = factsOf(rule)
		found = []*lesson{n}
	}
	if len(found) == 0 {
		if n, ok := parse("Remember that "+note, s, ref); ok {
			found = []*lesson{n}
		}
	}
	for _, n := range found {
		if typ != "" {
			n.typ = typ
		}
		if n.basis == "" && s.Origin != nil {
			n.basis = carriedBasis(note)
		}
	}
	return found
}

// carriedBasis is what the memory a project's pass sent on said of where it was learnt ("Source:
// stated by the user in their 3rd message of session …", "**Why:** …"): the note is only how it
// came here. "" when it says nothing.
func carriedBasis(note string) string {
	for _, label := range []string{"Source: ", "**Why:** "} {
		if i := strings.Index(note, label); i > 0 {
			basis, _, _ := strings.Cut(note[i+len(label):], "\n**How to apply:**")
			return strings.TrimRight(strings.TrimSpace(basis), ".")
		}
	}
	return ""
}

// everywhere is how a person states a rule for all their projects: "in every project", or asking
// for it to be written into the agent's global instructions ("帮我写进codex的全局，…").
var everywhere = lazyre.New(`(?i)\b(in|for|across|on) (every|all|any) (of )?(my |our )?(other )?(projects?|repos|repositories|repo|codebases?)\b|\beverywhere\b|\bwhatever the (repo|project|codebase)\b|\bno matter (which|what) (repo|project)\b|` + zhWriteInto + `[^，。,]{0,12}?全局`)

// thisProject is how a statement ties itself to the project at hand ("the only author of this
// blog", "here we use …"): such a statement stays in the project's store.
var thisProject = lazyre.New(`(?i)\b(this|our|the) (blog|repo|repository|project|codebase|code ?base|app|application|service|site|website|team|company|library|package|tool)\b|\bhere\b`)

// scoped places each new memory in a store: what the person says about themselves, and rules
// they state for every project, go to the user store when the pass has one; facts about the
// project and where things are (store.team.types) go to the team's when it has one; the rest,
// and every change to a memory of this store, stays here.
func scoped(ops []extract.Operation, req extract.Request) []extract.Operation {
	others := req.Elsewhere()
	toUser, toTeam := slices.Contains(others, memory.ScopeUser), slices.Contains(others, memory.ScopeTeam)
	for i, op := range ops {
		ops[i].Scope = req.Scope()
		if op.Action != extract.Create {
			continue
		}
		personal := everywhere.MatchString(op.Body) || op.Type == memory.User && !thisProject.MatchString(op.Body)
		personal = personal && (op.Type == memory.User || op.Type == memory.Feedback)
		switch {
		case toUser && personal:
			ops[i].Scope = memory.ScopeUser
		case toTeam && slices.Contains(req.TeamTypes, op.Type):
			ops[i].Scope = memory.ScopeTeam
		}
	}
	for i, op := range ops {
		if op.Scope == memory.ScopeUser {
			// howToApply names the project the lesson was said in; the user scope's hold in all.
			ops[i].Body = workingIn.ReplaceAllString(op.Body, "${1} in any project")
		}
	}
	return ops
}

// workingIn is how howToApply names the project a rule holds in.
var workingIn = lazyre.New(`\b(whenever working|when working) in [^,.\n]+`)

// summary says in plain words what the run read and what it proposes. The operations are counted
// before validation, which may still repair or drop some (the pass counts what it writes), so
// they are proposals, not what was done.
func summary(t tally, l *ledger, ops []extract.Operation) string {
	var created, updated, superseded, deleted int
	for _, op := range ops {
		switch op.Action {
		case extract.Create:
			created++
		case extract.Reinforce:
		case extract.Delete:
			deleted++
		default:
			updated++
		}
		superseded += len(op.Supersedes)
	}
	s := fmt.Sprintf("Offline consolidation read %s in %s and found %s",
		count(t.turns, "user turn"), count(t.sessions, "session"), count(t.statements, "explicit statement"))
	if t.evidence > 0 {
		s += " and " + count(t.evidence, "lesson") + " the sessions' commands established"
	}
	var done []string
	if len(ops) == 0 {
		done = append(done, "memory is unchanged")
	} else {
		done = append(done, fmt.Sprintf("proposed to create %d, update %d and supersede %d", created, updated, superseded))
	}
	if deleted > 0 {
		noun := "memories"
		if deleted == 1 {
			noun = "memory"
		}
		done = append(done, fmt.Sprintf("proposed to delete %d %s of a program not installed that has run since", deleted, noun))
	}
	if l.repeats > 0 {
		done = append(done, count(l.repeats, "statement")+" only repeated existing memories, reinforced and left as they are")
	}
	if l.pinned > 0 {
		done = append(done, count(l.pinned, "statement")+" contradicting pinned memories skipped")
	}
	if l.vague > 0 {
		done = append(done, count(l.vague, "correction")+" with nothing to correct skipped")
	}
	if len(t.unread) > 0 {
		slices.Sort(t.unread)
		done = append(done, count(len(t.unread), "session")+" partly in a language it has no rules for ("+
			strings.Join(slices.Compact(t.unread), ", ")+") skipped: a model reads them")
	}
	if t.injected > 0 {
		done = append(done, count(t.injected, "turn")+" with injected instructions ignored")
	}
	if t.pasted > 0 {
		done = append(done, count(t.pasted, "turn")+" that read as pasted instructions (a prompt or a spec, not lessons) skipped")
	}
	return s + "; " + strings.Join(done, "; ") + "."
}

func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
