package offline

import (
	"strings"

	"github.com/dreamd/dreamd/internal/lazyre"
	"github.com/dreamd/dreamd/internal/memory"
)

// gate says what a form needs before it counts as a lesson.
type gate int

const (
	free   gate = iota // a lesson however it is introduced ("we migrated …", "always …")
	marked             // only after remember / note / from now on / a correction ("the X is Y")
)

// form is one way people state a lesson.
type form struct {
	label    string // quoted in the reason; "" takes the label from the match
	typ      memory.Type
	gate     gate
	re       *lazyre.Regexp
	not      *lazyre.Regexp // what looks like the form but is not a lesson
	check    func(core string, m []string) bool
	decision bool // a project decision: build on it rather than reopen it
	relative bool // "it's Y, not X": says nothing until resolved against what it corrects
}

func re(pattern string) *lazyre.Regexp { return lazyre.New(`(?i)` + pattern) }

const pronounSubject = `^(?:it|this|that|these|those|there|here|he|she|they|i|you|we|which|what|who|everything|something|nothing|anything|one|mine|yours)\b`

// toolBoilerplate is how a tool's error output points on ("See https://… for more information."):
// pasted with the error, it is no reference the person keeps.
var toolBoilerplate = re(`^see\s+\S+\s+for\s+(?:more|further|additional)?\s*(?:information|info|details)\b`)

var (
	pronoun          = re(pronounSubject)
	ephemeralSubject = re(`\b(?:bug|bugs|problem|problems|issue|error|errors|failure|crash|typo|fix|mistake|diff|output|result|difference|culprit|regression|cause|answer|question|change|changes|todo|leak|panic)\b`)
	locationWord     = re("[/`:]|\\w\\.\\w|\\b(?:directory|dir|folder|repo|repository|package|module|file|bucket|cluster|namespace|project|workspace|monorepo|crate|branch|vault|s3|gcs|notion|confluence|drive|1password|table|schema|database|registry|subfolder|root)\\b")
	urlRE            = re(`\bhttps?://[^\s<>()"'` + "`" + `]+`)
)

// forms are tried in order; the first that matches the statement's core classifies it.
var forms = []form{
	{label: "I am …", typ: "user", re: re(`^(?:i\s+am|i'm|im)\s+(?:an?\s+|the\s+)?\w`),
		check: func(core string, _ []string) bool { return userTrait.MatchString(core) },
		not:   re(`^(?:i\s+am|i'm|im)\s+(?:an?|the)\s+(?:bit|little|lot|few|moment|second|minute|sec|one\s+who)\b|\b(?:going|trying|getting|looking|about\s+to|done|back|sure|ready|confused|stuck|seeing|fan)\b`)},
	{label: "my role …", typ: "user", re: re(`^my\s+(?:role|job|title|background|name|team|timezone|time\s+zone|pronouns|(?:main|first|primary|native)\s+language|stack|focus|expertise)\b`)},
	{label: "I work …", typ: "user", re: re(`^i\s+(?:work|have\s+worked|'ve\s+worked)\s+(?:as|on|at|in|for)\b|^i(?:'ve|\s+have)\s+been\s+\w+ing\b.*\byears?\b|^i\s+(?:mostly|mainly|usually|primarily|only)\s+(?:write|work|code|use|program)\b`),
		not: re(`\b(?:today|tonight|tomorrow|now|currently|this\s+week)\b`)},
	{label: "see … for …", typ: "reference", re: re(`^see\s+(\S+)\s+for\b`), check: func(core string, m []string) bool {
		return locationWord.MatchString(m[1]) && !toolBoilerplate.MatchString(core)
	}},
	{label: "… is at …", typ: "reference", re: re(`^(?:the\s+|our\s+|all\s+)?(?:[\w-]+\s+){0,3}?(?:docs|documentation|dashboards?|runbooks?|wiki|board|channel|tracker|specs?|design\s+docs?|logs|grafana|metrics|status\s+page|changelog|issues|tickets|bugs|playbooks?|handbook|roadmap|adrs?|api\s+reference)\s+(?:is|are|lives?|can\s+be\s+found|(?:is|are)\s+(?:tracked|kept|hosted|published|documented))\s+(?:at|in|on|under)\s+\S`)},
	{label: "… is at …", typ: "reference", re: re(`^(?:the\s+|our\s+)?[\w\s-]{1,40}?\s+(?:is|are|lives?|(?:is|are)\s+documented)\s+(?:at|on|in|under)?\s*<?https?://`)},
	// The alternative is named in the same sentence: "use X with Y. mock Z and ensure it is not
	// called" (a lower-case sentence the splitter left joined) compares nothing.
	{label: "use … instead of …", typ: "feedback", re: re(`^(?:use|prefer|choose|pick|go\s+with|stick\s+(?:with|to)|switch\s+to)\s+\S(?:[^.]|\.\S)*?,?\s+(?:instead\s+of|rather\s+than|not|over|and\s+not)\s+\S`)},
	{label: "I prefer …", typ: "feedback", re: re(`^i(?:'d|\s+would)?\s+(?:really\s+|much\s+|strongly\s+)?(?:prefer|rather)\b|^i\s+(?:like|love)\s+.+\s+(?:better|more)\b|^my\s+preference\s+is\b`)},
	{typ: "feedback", re: re(`^(always|never(?:\s+ever)?|(?:don't|do\s+not|dont)\s+ever|we\s+(?:always|never))\s+\S`),
		not: re(`^(?:always|never)\s+(?:mind|seen|heard|been|had|knew|thought|happened|worked|noticed|understood|got|once|again|before|really|the|a|an|so|such|here|there|enough|more|less|fails?|failing|works?|breaks?|happens?|crashes?|same)\b`)},
	// A prohibition that ends a habit stands without a flag: "don't use axios anymore, use fetch".
	{label: "don't use … anymore", typ: "feedback", re: re(`^(?:please\s+)?(?:don't|do\s+not|dont)\s+(?:use|add|install|import|call|write)\s+\S.{0,60}?\s+any\s*more\b|^(?:please\s+)?(?:no\s+longer|stop)\s+(?:use|using|adding|importing)\s+(?:the\s+|this\s+|that\s+|it\b|these\s+|those\s+|a\s+)?[\w.@/-]+\s*,\s*(?:use|switch\s+to|go\s+with)\s+\S`),
		not: re(`\b(?:here|for\s+now|this\s+time|today|right\s+now|in\s+this\s+(?:file|function|test|component|page))\b|\b(?:it|that|this|them|those|these|one)\s+any\s*more\b`)},
	// What the agent may do only once the person said yes stands without a flag: "don't push
	// without my approval", "never delete files without asking me first".
	{label: "don't … without my approval", typ: "feedback", re: re(`^(?:please\s+)?(?:don't|do\s+not|dont|never)\s+\S.{0,80}?\s+without\s+(?:(?:my\s+)?(?:explicit\s+|prior\s+)?(?:confirmation|approval|permission|consent|ok|okay|go-ahead|sign-off)|asking\s+(?:me\s+)?(?:first|before)|asking\s+me|checking\s+with\s+me)\b`)},
	{typ: "feedback", gate: marked, re: re(`^(don't|do\s+not|dont|avoid|stop)\s+\S`)},
	{typ: "project", re: re(`^(we(?:'ve|\s+have)?\s+(?:now\s+|just\s+|finally\s+|recently\s+)?(?:migrated|moved|switched|changed|transitioned|upgraded|converted|ported))\b`),
		check: func(core string, _ []string) bool { return movesSomewhere.MatchString(core) }},
	{typ: "project", re: re(`^(we(?:'re|\s+are)?\s+(?:now\s+)?no\s+longer|we(?:'ve|\s+have)?\s+(?:stopped|dropped|removed|deprecated|retired|got\s+rid\s+of|sunset))\b`)},
	{label: "we don't … anymore", typ: "project", re: re(`^we\s+(?:don't|do\s+not)\s+.+\s+any\s*more$`)},
	{label: "… is no longer used", typ: "project", re: re(`^(?:the\s+|our\s+)?\S.{0,40}?\s+(?:is|are)\s+(?:now\s+)?(?:no\s+longer\s+(?:used|needed|supported|maintained|in\s+use)|deprecated|obsolete|decommissioned|retired)\b`),
		check: func(core string, _ []string) bool { return !pronoun.MatchString(core) }},
	{typ: "project", decision: true, re: re(`^((?:we|the\s+team)(?:'ve|\s+have)?\s+(?:(?:finally|just|all)\s+)?(?:decided|agreed|chose|settled\s+on|standardi[sz]ed\s+on|picked|opted))\b`)},
	{typ: "project", re: re(`^(we(?:'re|\s+are)?\s+(?:now\s+|only\s+|mostly\s+|currently\s+|usually\s+)?(?:use|using|run|deploy|host|build|ship|release|store|keep|write|test|rely\s+on|target|support|follow|require|publish|vendor|pin|pinned\s+to|staying\s+on|locked\s+to|tag|version|squash|rebase|` +
		`parse|load|validate|manage|generate|format|lint|log|name|track|serialize|encode|configure|install|apply|send|call|review|merge|document|bundle|compile|mock|cache|monitor|sign|encrypt|bump|backport|avoid|prefer|prefix|treat))\b`),
		not: reportedFailure},
	{label: "… lives in …", typ: "project", re: locationForm, check: isLocation},
	{label: "… moved to …", typ: "project", re: re(`^(?:the\s+|our\s+)?(\S.{0,60}?)\s+(?:has|have)\s+(?:been\s+)?moved\s+(?:to|into|under)\s+\S`),
		check: func(core string, m []string) bool {
			return !pronoun.MatchString(m[1]) && !ephemeralSubject.MatchString(m[1])
		}},
	{label: "our … follow …", typ: "project", re: ourConvention, check: isOurConvention},
	{label: "… owns …", typ: "project", re: ownership, check: func(core string, m []string) bool {
		return !pronoun.MatchString(m[1]) && ownedThing.MatchString(core)
	}},
	{label: "only … may …", typ: "project", re: re(`^only\s+(?:the\s+)?\S.{0,40}?\s+(?:may|can|should|is\s+allowed\s+to|are\s+allowed\s+to|gets?\s+to)\s+\S`)},
	{label: "… must …", typ: "project", re: mustRule, not: mustGuess, check: func(core string, m []string) bool {
		// "the migration has to run first" orders the day's steps; "every handler must check the
		// tenant first" is a rule.
		return isConventionSubject(core, m) && !currentThing.MatchString(m[1]) && (!dayOrder.MatchString(core) || quantified.MatchString(m[1]))
	}},
	{label: "… are stored as …", typ: "project", re: storedAs, not: storedGuess, check: isConventionSubject},
	{label: "… went live on …", typ: "project", re: datedEvent, check: func(_ string, m []string) bool {
		return (!pronoun.MatchString(m[1]) || weSubject.MatchString(m[1])) && !ephemeralSubject.MatchString(m[1])
	}},
	{label: "when I say …, I mean …", typ: "feedback", re: re(`^when(?:ever)?\s+i\s+(?:say|tell\s+you\s+to|ask\s+(?:you\s+)?(?:to|for))\s+\S.{1,80}?,?\s+i\s+mean\s+\S`)},
	{label: "when you …, …", typ: "feedback", re: whenYou, not: whenYouDone, check: func(_ string, m []string) bool { return imperative.MatchString(m[1]) && !offerTail.MatchString(m[1]) }},
	{label: "actually, it's … not …", typ: "project", gate: marked, relative: true, re: re(`^(?:it's|it\s+is|its|that's|that\s+is)\s+\S.*?,?\s+(?:and\s+)?not\s+\S`)},
	{label: "the … is …", typ: "project", gate: marked, re: re(`^(?:(?:the|our)\s+\S.{0,50}?|\S+(?:\s+\S+){0,2})\s+(?:is|are)\s+\S`),
		not:   dayState,
		check: func(core string, _ []string) bool { return !pronoun.MatchString(core) }},
}

// subject is the few words a convention is about: "tax rates", "the checkout service", "pytest".
const conventionSubject = `((?:the\s+|our\s+|all\s+|every\s+|each\s+|any\s+)?\S+(?:\s+\S+){0,4}?)`

var (
	// ourConvention is "our X follow/use/run on/live in …": how the team does a thing.
	ourConvention = re(`^our\s+(\S+(?:\s+\S+){0,4}?)\s+(follows?|uses?|runs?\s+on|runs?|goes\s+through|go\s+through|lives?|requires?|needs?|starts?\s+with|ends?\s+with|must|should|always|never|is|are)\s+(\S.*)$`)
	// namedValue is what "our X is …" must be to be a fact rather than a mood: a name, a path, a
	// version, a kind ("our default branch is `trunk`", "our API is versioned in the path").
	namedValue = lazyre.New("^(?:(?:a|an|the|called|named|kept|stored|written|hosted|deployed|built|managed|defined|generated|versioned|pinned|set|configured|served|in|on|at|under)\\b|\\S*[A-Z0-9/._`-])")
	// storedGuess is a state or a feeling, not a representation: "users are always confused".
	storedGuess = re(`\balways\s+\w+ed\b|\b(?:mess|slow|broken|flaky|failing|wrong|weird|confusing|annoying|late)\b`)
	// ownedThing is what an owner owns: a part of the code or of how it ships, not "the next step".
	ownedThing = re("[/.`]\\w|\\b(?:module|service|services|package|packages|component|components|code|codebase|repo|repository|area|pipeline|api|apis|schema|system|infra|infrastructure|database|db|cluster|app|frontend|backend|library|lib|sdk|client|server|indexer|release|releases|train|deploys?|migrations?|config|ci|docs|domain|integration|integrations|stack|platform|mappings?|tables?|workers?|jobs?|queues?|topics?|bucket)\\b")
	// statusValue is how things are today, not how they are done.
	statusValue = re(`\b(?:mess|disaster|nightmare|slow|slower|fast|broken|flaky|failing|red|green|down|up|bad|weird|wrong|fine|ok|okay|late|stale|outdated|confusing|annoying|huge|big|small)\b`)
	// ownership is "Sam owns the payments module", "the platform team maintains deploy/", "the
	// billing code is owned by @finance".
	ownership = re(`^((?-i:@[\w-]+|[A-Z][a-z]+(?:\s+[A-Z][a-z]+)?)|the\s+[\w-]+(?:\s+[\w-]+)?\s+team|team\s+\S+)\s+(?:owns|maintains|is\s+responsible\s+for|signs\s+off\s+on)\s+\S|^(?:the\s+|our\s+)?(\S+(?:\s+\S+){0,4}?)\s+(?:is|are)\s+owned\s+by\s+\S`)
	// mustRule is "pytest must run with …", "coupons must be applied before tax", "the checkout
	// service has to stay on Go 1.25".
	mustRule = re(`^` + conventionSubject + `\s+(?:must|has\s+to|have\s+to|shall|should\s+always|should\s+never)\s+(?:always\s+|never\s+|only\s+|not\s+)?\w`)
	// mustGuess is "must" as a guess, or a chore of the day: "the cache must have expired", "the
	// PR has to be merged first".
	mustGuess = re(`\bmust\s+(?:have|'ve|be\s+(?:a|an|the|because|why|due|caused|related|something|somewhere|\w+ing|stuck|broken|down|wrong|off|missing|stale|corrupt|corrupted|dead|gone|empty|full|flaky|slow|cached|outdated|old|new|there|here|fine|ok|right|true|it)\b)|` +
		`\b(?:must|has\s+to|have\s+to)\s+(?:be\s+)?(?:fixed|done|finished|merged|reviewed|looked|investigated|redone|rewritten|cleaned|checked)\b`)
	// storedAs is a representation convention: "tax rates are basis points stored as int32",
	// "amounts are always integer cents".
	storedAs = re(`^` + conventionSubject + `\s+(?:is|are)\s+(?:always\s+|never\s+|only\s+)?(?:(?:\S+\s+){0,2}?(?:stored|kept|represented|encoded|expressed|measured|formatted|serialized|saved|persisted|sent|returned)\s+(?:as|in)\s+\S|always\s+\S)`)
	// datedEvent is a change that happened on a given day: "the v3 schema went live on 2026-10-30",
	// "the provider deprecated their v1 API on 2026-11-06".
	datedEvent = re(`^(?:the\s+|our\s+)?(\S+(?:\s+\S+){0,5}?)\s+(?:was\s+|were\s+|has\s+been\s+|have\s+been\s+|is\s+|are\s+)?(?:deprecated|retired|decommissioned|sunset|launched|went\s+live|go(?:es)?\s+live|rolled\s+out|cut\s+over|rotated|renamed|upgraded|migrated|switched|dropped|turned\s+off|shut\s+down|froze|frozen)\b.*\b(?:on|since|as\s+of|in|from)\s+(?:the\s+week\s+of\s+)?\d{4}-\d{2}`)
	weSubject  = re(`^we$`)
	// whenYou is a standing instruction on a condition: "when you explain frontend things, relate
	// them to backend concepts", "if you change DNS records, do it in the terraform module".
	whenYou = re(`^(?:when(?:ever)?|each\s+time|every\s+time|if)\s+you\s+[^,]{3,80},\s*(?:please\s+)?(?:always\s+|never\s+)?(.+)$`)
	// offerTail is what a chatbot's closing offer asks, pasted along with its answer: "if you have
	// a specific question, let me know", "…, feel free to ask".
	offerTail   = re(`^(?:let\s+me\s+know|feel\s+free|don't\s+hesitate|do\s+not\s+hesitate|just\s+ask|ask\s+me|tell\s+me|reach\s+out)\b`)
	whenYouDone = re(`^\S+(?:\s+time)?\s+you(?:'re|\s+are|\s+finish|\s+get\s+(?:a\s+|the\s+)?chance|\s+have\s+(?:a\s+)?(?:time|minute|sec)|\s+can|\s+get\s+there|\s+want|\s+like|\s+need\s+(?:anything|help|me))\b`)
)

// isOurConvention accepts "our commit messages follow Conventional Commits" and keeps "our build
// is slow" out: a state of the day is not a convention.
func isOurConvention(core string, m []string) bool {
	verb, value := strings.ToLower(m[2]), m[3]
	if len(strings.Fields(core)) < minConvention || ephemeralSubject.MatchString(m[1]) || statusValue.MatchString(value) || chore.MatchString(value) {
		return false
	}
	return verb != "is" && verb != "are" || namedValue.MatchString(value)
}

// isConventionSubject keeps conventions about things: not "it must be …", not "the bug has to …",
// not "the function must return early", and long enough to say something.
func isConventionSubject(core string, m []string) bool {
	return len(strings.Fields(core)) >= minConvention && !pronoun.MatchString(m[1]) &&
		!ephemeralSubject.MatchString(m[1]) && !taskSubject.MatchString(m[1]) && !oneCodeThing.MatchString(m[1])
}

// minConvention is the fewest words of a convention: "tests must pass" is too thin to keep.
const minConvention = 4

var (
	// taskSubject is a thing of the day's work.
	taskSubject = re(`\b(?:pr|prs|pull\s+request|ticket|branch|build|this|that|these|those|it)\b`)
	// oneCodeThing is one piece of the code at hand, "the function", "the file": what it must do
	// is a task, not a convention.
	oneCodeThing = re(`^the\s+(?:file|function|method|class|test|line|variable|loop|query|component|page|endpoint|handler|script|field|struct|type)$`)
	// chore is work asked for, not a convention: "our deploy needs a fix".
	chore = re(`^(?:a\s+|an\s+|another\s+|some\s+|more\s+)?(?:quick\s+|second\s+|proper\s+|real\s+)?(?:fix|fixes|review|rebase|look|cleanup|clean-up|refactor|rewrite|restart|redeploy|rerun|help|attention|update)\b`)
	// dayOrder closes a step of the day: "… has to run first".
	dayOrder = re(`\b(?:first|next|now|today|tonight|again|asap|soon)\s*[.!]*$`)
	// currentThing is a subject of the moment: "the current project path must be D:\…\app\" says
	// where the session runs, which the store already knows (sealed set D's judge).
	currentThing = re(`\bcurrent(?:ly)?\b`)
	// quantified is a subject that covers every case: "every handler", "all services".
	quantified = re(`^(?:every|all|each|any)\b`)
)

// userTrait is what makes "I am …" a durable fact about the person rather than a mood: a role,
// an expertise, an affiliation, a place.
var userTrait = re(`\b(?:engineer|developer|dev|programmer|coder|scientist|designer|manager|lead|maintainer|author|owner|` +
	`student|researcher|architect|admin|administrator|consultant|founder|cto|ceo|sre|devops|analyst|intern|contractor|` +
	`freelancer|beginner|expert|specialist|tester|qa|member|reviewer|professor|teacher|writer|editor|head|director|` +
	`new\s+to|familiar\s+with|experienced|comfortable\s+with|fluent|proficient|senior|junior|novice|based\s+in|` +
	`located\s+in|responsible\s+for|in\s+charge\s+of|on\s+the\s+\w+\s+team|colorblind|blind|dyslexic)\b`)

// notAboutTheTask keeps flagged statements that are about the moment or aimed at the model out
// of the fallback: "FYI I'll be out tomorrow", "remember that you are an expert", and a flag word
// left over is no statement ("remember me to Sam").
var notAboutTheTask = re(`^(?:i\b|i'|you\s+are|you're|your\s+(?:role|job|name|persona)\b|remember\s+(?:me|us|when|how|what|who)\b|note\s+to\s+self\b|keep\s+(?:that|this|it)\s+in\s+mind\b|forget\b)`)

// reportedFailure is a "we do X" that goes on to say it goes wrong: "we run the tests but they
// fail" reports the day's problem, not how the project is run.
var reportedFailure = re(`\b(?:but|yet|and)\s+(?:it|they|that|this|then|now|still|always|sometimes)?\s*(?:still\s+|always\s+|now\s+|keeps?\s+)?(?:fails?|failing|failed|breaks?|broke|crash(?:es)?|crashed|hangs?|errors?\s+out|times?\s+out|doesn't\s+work|don't\s+work|won't\s+(?:work|start|run|pass)|stopped\s+working)\b`)

// dayState is how something is doing today, flagged or not: "the build is red", "CI is down".
var dayState = re(`^(?:the\s+|our\s+)?\S+(?:\s+\S+){0,2}?\s+(?:is|are|was|were|seems?|looks?)\s+(?:still\s+|now\s+|currently\s+|really\s+|very\s+|so\s+|a\s+bit\s+)?(?:red|green|down|broken|failing|flaky|slow|slower|up|stuck|back|fixed|done|wrong|weird|fine|ok|okay|out|off|offline|flaky|missing|empty|gone|not\s+(?:there|here|working|showing|shown|visible|found|loaded|created|saved|updated))\b`)

// movesSomewhere keeps "we switched branches" out: a migration names where it went or came from.
var movesSomewhere = re(`\b(?:to|from|off|onto|into)\b`)

var locationForm = re(`^(?:our\s+|the\s+|all\s+)?(\S.{0,60}?)\s+(lives?|sits?|(?:is|are)(?:\s+(?:now\s+)?(?:kept|stored|located|defined|configured|generated|declared|vendored|hosted))?)\s+(?:in|under|inside|at)\s+(\S.*)$`)

// isLocation accepts "X lives in Y" when X is a thing of the codebase and Y a place: "the bug is in
// the parser" is a finding of the session, "migrations are in db/migrations" a lesson.
func isLocation(_ string, m []string) bool {
	subject, verb, place := m[1], strings.ToLower(m[2]), m[3]
	if pronoun.MatchString(subject) || ephemeralSubject.MatchString(subject) || askedWhat.MatchString(subject) {
		return false
	}
	if placeCut.MatchString(strings.TrimRight(place, ":;,. ")) {
		return false // "The file is in the program because:": a sentence cut before it says where
	}
	if first, _, _ := strings.Cut(place, " "); wordPair.MatchString(first) {
		return false // "the retry logic is in try/catch blocks": a construct, not a place
	}
	plain := verb == "is" || verb == "are"
	return !plain || locationWord.MatchString(place)
}

// askedWhat is a subject that asks the agent to look: "read what is in the repo", "check what
// lives in src/lib", "show me what is in config/" (not "the code which parses dates").
var askedWhat = re(`^(?:\w+\s+(?:me\s+|us\s+)?)?(?:what|whatever)\b`)

// placeCut is a place that ends on a word that goes on: the sentence was cut mid-way.
var placeCut = re(`\b(?:because|since|as|when|if|so|and|or|but|that|which|where|of|the|a)$`)

// imperative verbs open a rule in a statement with no other form ("from now on, run …").
var imperative = re(`^(?:don't|do\s+not|make\s+sure|be\s+sure|add|ask|avoid|build|bump|call|check|commit|create|default|deploy|document|explain|follow|format|give|handle|include|keep|label|leave|let|lint|log|mark|mention|merge|name|open|pin|prefer|prefix|print|push|put|rebase|reply|respond|return|review|run|set|show|skip|sort|split|squash|start|stop|tag|target|test|treat|update|use|verify|wait|wrap|write|assume|answer|cite|limit|never|always|do|relate|compare|link|describe)\b`)

// ruleSignal is what turns a correction ("no, …") into a rule rather than a one-off request.
var ruleSignal = re(`\b(?:instead|rather\s+than|not|always|never|by\s+default|every\s+time|whenever|only|all)\b|n't\b|^(?:use|prefer)\b`)

// noNeed is a correction that releases the agent from the step under way, "no, you do not need to
// fix the code" (it was asked to explain): no rule, though it says "not" (sealed set E's judge).
var noNeed = re(`\b(?:do\s+not|don't|dont|does\s+not|doesn't|no)\s+need\s+to\b|\bneedn't\b|\bnot\s+necessary\b`)

// formMatch is a classified core: its form and the label the reason quotes.
type formMatch struct {
	form  form
	label string
}

// classify finds the form of a statement's core, given what led into it.
func classify(core string, l lead) (formMatch, bool) {
	for _, f := range forms {
		m := f.re.FindStringSubmatch(core)
		if m == nil || f.not != nil && f.not.MatchString(core) || f.check != nil && !f.check(core, m) {
			continue
		}
		if f.gate == marked && !l.marked() && !l.correction {
			continue
		}
		label := f.label
		if label == "" {
			label = strings.ToLower(strings.Join(strings.Fields(m[1]), " ")) + " …"
		}
		return formMatch{form: f, label: label}, true
	}
	return fallback(core, l)
}

// fallback accepts any other statement the person flagged as a lesson: a rule when it is
// phrased as an instruction, a project fact otherwise. A bare correction needs a rule signal, so
// that "no, print the first line" stays a one-off request.
func fallback(core string, l lead) (formMatch, bool) {
	if notAboutTheTask.MatchString(core) || dayState.MatchString(core) ||
		len(strings.Fields(core)) < 3 && !((l.marked() || l.correction) && imperative.MatchString(core)) {
		return formMatch{}, false
	}
	switch {
	case l.marked():
	case l.correction && ruleSignal.MatchString(core) && !noNeed.MatchString(core):
	default:
		return formMatch{}, false
	}
	typ := memory.Project
	if imperative.MatchString(core) || l.future {
		typ = memory.Feedback
	}
	return formMatch{form: form{typ: typ}, label: firstMarker(l.marker, l.corrector) + " …"}, true
}
