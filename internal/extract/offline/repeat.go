package offline

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

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
	text    string // the sentence, for a guard (repeatedGuard): one sent again word for word is not a second saying
}

// again records on n, said again in the person's message of s, where it was first said: its basis
// names both ("said by the person in their 2nd message of … and again in their 1st message of …")
// and a first saying in another session is evidence too.
func (first saying) again(n *lesson, verb, again string, s *extract.Session, message int) {
	n.basis = fmt.Sprintf("%s by the person in their %s message of %s and %s in their %s message of %s",
		verb, ordinal(first.message), sessionOn(first.session), again, ordinal(message), sessionOn(s))
	if first.session.ID != s.ID {
		n.also = []string{first.session.ID}
	}
}

// repeated returns the prohibitions of a user turn that an earlier message said too, as lessons
// naming both; the others are remembered in said for the messages to come.
func repeated(text string, said map[string]saying, s *extract.Session, message int, ref time.Time) []*lesson {
	out := repeatedCJK(text, said, s, message)
	out = append(out, repeatedPort(text, said, s, message)...)
	for _, p := range pieces(text) {
		sentence := tidy(p.text)
		if strings.HasPrefix(sentence, "(") && strings.HasSuffix(sentence, ")") {
			sentence = strings.TrimSpace(sentence[1 : len(sentence)-1]) // "(Don't use external libraries)"
		}
		if isQuestion(sentence) {
			continue
		}
		names := notUsedNames(sentence)
		if !prohibition.MatchString(sentence) {
			// "fix the UI so that it does not use Chart.js": not a prohibition itself, but a
			// later "Don't use Chart.js" says again what it asked.
			for _, k := range names {
				if _, ok := said[k]; !ok {
					said[k] = saying{session: s, message: message}
				}
			}
			continue
		}
		key := strings.Join(keyWords(sentence), " ")
		if key == "" {
			continue
		}
		first, ok := said[key]
		if !ok {
			said[key] = saying{session: s, message: message}
		}
		if !ok || first.session == s && first.message == message {
			// The same thing forbidden in other words: keyed by the names it forbids.
			ok = false
			for _, k := range names {
				f, seen := said[k]
				if !seen {
					said[k] = saying{session: s, message: message}
					continue
				}
				if !ok && (f.session != s || f.message != message) {
					first, ok = f, true
				}
			}
			if !ok {
				continue
			}
		}
		n, ok := parseFlagged(sentence, "said again", s, ref)
		if !ok {
			continue
		}
		n.message = message
		first.again(n, "said", "again", s, message)
		out = append(out, n)
	}
	return out
}

// notUsing is how an English sentence says a named thing is not to be used, in any shape: "so
// that it does not use Chart.js", "without jQuery", "stop using moment.js". Only names that look
// like a package's or a file's count (a dot, or a capital inside the word), so that "don't use
// any external libraries" and a plain word are left to the words of the sentence.
var notUsing = lazyre.New(`(?i:\bnot|n't|\bnever|\bwithout|\bno longer|\bstop)\s+(?i:(?:use|using|uses|add|adding|include|including|import|importing|rely on|relying on)\s+)?(?i:any\s+|the\s+)?([A-Za-z][A-Za-z0-9_+-]*(?:\.[A-Za-z0-9_+-]+)+|[A-Za-z][a-z0-9]*[A-Z][A-Za-z0-9]*)`)

// notUsedNames returns the keys of the names a sentence says are not to be used.
func notUsedNames(sentence string) []string {
	var out []string
	for _, m := range notUsing.FindAllStringSubmatch(sentence, -1) {
		out = append(out, "name\x00"+strings.ToLower(strings.TrimRight(m[1], ".")))
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

// prohibitionLang names the language of a prohibition of otherProhibition by its script or cue.
func prohibitionLang(st string) string {
	lower := strings.ToLower(st)
	switch {
	case hangul.MatchString(st):
		return "ko"
	case strings.ContainsAny(lower, "іїєґ"):
		return "uk"
	case strings.ContainsFunc(st, func(r rune) bool { return unicode.Is(unicode.Cyrillic, r) }):
		return "ru"
	case strings.Contains(lower, "jangan"):
		return "id"
	case strings.Contains(lower, "non "):
		return "it"
	case strings.Contains(lower, "nie "):
		return "pl"
	case strings.Contains(lower, "nep") || strings.Contains(lower, "neměň"):
		return "cs"
	}
	return "tr"
}

// otherProhibition is a prohibition in the other languages the rules read whose words are not
// English's: "не используй moment.js", "moment.js kullanma", "moment.js 사용하지 마", "non usare
// moment.js", "nie używaj moment.js", "nepoužívej moment.js", "jangan pakai moment.js". Keyed,
// as the Chinese ones are, by the names it forbids: in the Latin-script languages only names
// that look like a package's or a file's (notUsing's), the rest being the sentence's own words.
var otherProhibition = lazyre.New(`(?i)(?:^|[^\p{L}])(?:не (?:используй|используйте|ставь|добавляй|трогай|меняй|подключай)|не (?:використовуй|використовуйте|додавай|чіпай|змінюй)|kullanma(?:yın|yin)?|bırakma(?:yın)?|ekleme(?:yin)?|değiştirme(?:yin)?|dokunma(?:yın)?|(?:사용하지|쓰지|넣지|바꾸지) ?마(?:세요|요|라|십시오)?|non (?:usare|utilizzare|aggiungere|toccare|modificare)|nie (?:używaj|dodawaj|ruszaj|zmieniaj)|nepoužívej|nepoužívejte|nepřidávej|neměň|jangan (?:pakai|gunakan|menggunakan|tambahkan|ubah|sentuh))(?:[^\p{L}]|$)`)

// westernProhibitions are the prohibitions of the languages English's shapes do not read and
// otherProhibition leaves out: Spanish, Portuguese, French, German, Dutch and Vietnamese ("no uses
// Chart.js", "não use Chart.js", "n'utilise pas Chart.js", "verwende kein Chart.js", "gebruik geen
// Chart.js", "đừng dùng Chart.js"). As there, only names that look like a package's or a file's
// count, so "no uses eso" or "tôi không dùng Windows" keys nothing.
var westernProhibitions = []struct {
	lang string
	re   *lazyre.Regexp
}{
	{"es", lazyre.New(`(?i)(?:^|[^\p{L}])no (?:uses|utilices|usen|utilicen|pongas|añadas|agregues|toques|modifiques|cambies|instales|importes)(?:[^\p{L}]|$)`)},
	{"pt", lazyre.New(`(?i)(?:^|[^\p{L}])não (?:use|usa|utilize|usem|mexa|altere|adicione|instale|importe|toque|mude)(?:[^\p{L}]|$)`)},
	{"fr", lazyre.New(`(?i)(?:^|[^\p{L}])(?:n'utilise pas|n'utilisez pas|ne touche pas|ne touchez pas|ne modifie pas|ne modifiez pas|n'ajoute pas|n'ajoutez pas|ne change pas|n'installe pas|n'importe pas)(?:[^\p{L}]|$)`)},
	{"de", lazyre.New(`(?i)(?:^|[^\p{L}])(?:verwende|benutze|benutz|nutze|nutz|installiere|importiere) (?:kein|keine|keinen|nicht)(?:[^\p{L}]|$)`)},
	{"nl", lazyre.New(`(?i)(?:^|[^\p{L}])(?:gebruik|installeer|importeer) (?:geen|niet)(?:[^\p{L}]|$)`)},
	{"vi", lazyre.New(`(?i)(?:^|[^\p{L}])(?:đừng|không được|không) (?:dùng|sử dụng|xài|sửa|thêm|đụng|cài)(?:[^\p{L}]|$)`)},
}

// westernProhibitionLang is the language of the prohibition of westernProhibitions st says, ""
// for none.
func westernProhibitionLang(st string) string {
	for _, w := range westernProhibitions {
		if w.re.MatchString(st) {
			return w.lang
		}
	}
	return ""
}

// packageName is a name that looks like a package's or a file's: a dot, or a capital inside.
var packageName = lazyre.New(`[A-Za-z][A-Za-z0-9_+-]*(?:\.[A-Za-z0-9_+-]+)+|[A-Za-z][a-z0-9]*[A-Z][A-Za-z0-9]*`)

// prohibitionNames are the names a prohibition in Chinese, Japanese or another language forbids.
func prohibitionNames(st string) []string {
	find := latinName
	if !strings.ContainsFunc(st, isHan) && !kana.MatchString(st) && !strings.ContainsFunc(st, func(r rune) bool { return unicode.In(r, unicode.Cyrillic, unicode.Hangul) }) {
		find = packageName
	}
	var names []string
	for _, n := range find.FindAllString(st, -1) {
		names = append(names, strings.ToLower(n))
	}
	return names
}

// repeatedCJK is repeated for prohibitions said in Chinese, Japanese or the other languages of
// otherProhibition: the second message that forbids the same names (in any wording) makes the
// lesson.
func repeatedCJK(text string, said map[string]saying, s *extract.Session, message int) []*lesson {
	var out []*lesson
	for _, line := range proseLines(text) {
		for _, sentence := range splitLang(line) {
			st := tidy(stripOpeners(sentence))
			if st == "" || len(st) > maxSentence || isQuestion(st) || asksCJK(st) || dayWords.MatchString(st) || dayWordsAfar.MatchString(st) {
				continue
			}
			other := !cjkProhibition.MatchString(st)
			western := ""
			if other && !otherProhibition.MatchString(st) {
				if western = westernProhibitionLang(st); western == "" {
					continue
				}
			}
			names := prohibitionNames(st)
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
			} else if western != "" {
				n.lang = western
			} else if other {
				n.lang = prohibitionLang(st)
			}
			n.facts = factsOf(rule)
			first.again(n, "said", "again", s, message)
			out = append(out, n)
		}
	}
	return out
}

// A thing the person asks to keep as it is ("keep the <video> tag", "NE TOUCHE PAS aux textes",
// "Garde 100% du copywriting") is, said once, part of the edit at hand; asked again in another
// message of the same project, in whatever words, it is a constraint the person holds. Two such
// sayings are the same when they name a same thing (a word of four letters or more that is not
// a word of the saying itself, or a name in Chinese and Japanese), and a saying repeated word for
// word (the same prompt sent again after a failure) is not a second one.

// guardCue opens a sentence asking to keep something as it is, in the languages the rules read:
// keep or preserve it, or do not touch, change or remove it.
var guardCue = lazyre.New(`(?i)^(?:please\s+|s'il te plaît,?\s+|por favor,?\s+|bitte\s+|alsjeblieft\s+)?(?:` +
	// English
	`keep|preserve|retain|leave|(?:do\s+not|don't|dont|never)\s+(?:touch|change|modify|alter|remove|delete|rewrite)|` +
	// French
	`garde[rz]?|conserve[rz]?|préserve[rz]?|ne\s+(?:touche[rz]?|modifie[rz]?|change[rz]?|supprime[rz]?)\s+(?:pas|jamais|aucune?|rien)|interdiction\s+de\s+(?:changer|modifier|toucher|supprimer)|` +
	// Spanish
	`mantén|mantenga|conserva|preserva|no\s+(?:toques|cambies|modifiques|borres|elimines|toque|cambie|modifique)|` +
	// Portuguese
	`mantenha|mantém|preserve|não\s+(?:mexa|altere|mude|modifique|remova|apague|toque)|` +
	// German
	`behalte|bewahre|(?:ändere|verändere|lösche|entferne|berühre)\s+\S+(?:\s+\S+)?\s+nicht|` +
	// Dutch
	`behoud|bewaar|houd|(?:verander|wijzig|verwijder)\s+\S+(?:\s+\S+)?\s+niet|` +
	// Italian
	`mantieni|conserva|non\s+(?:toccare|modificare|cambiare|cancellare|rimuovere)|` +
	// Vietnamese, with and without its marks
	`giữ\s+nguyên|giữ\s+lại|giữ|giu\s+nguyen|(?:đừng|không\s+được|không)\s+(?:sửa|thay\s+đổi|đổi|xóa|xoá|động\s+vào)|(?:dung|khong\s+duoc)\s+(?:sua|thay\s+doi|doi|xoa)` +
	`)(?:\s|$|[.,;:!])|^(?:请|請)?(?:保留|保持|不要(?:改|修改|动|動|删|刪|删除|刪除)|别(?:改|动|删)|別(?:改|動|刪))`)

// guardWord is a word of a guard sentence; guardStop are the words that name nothing kept: the
// cues' own words, pronouns, articles and quantities.
var (
	guardWord = lazyre.New(`[\p{L}\p{N}][\p{L}\p{N}_+.-]*[\p{L}\p{N}]`)
	guardStop = map[string]bool{}
)

func init() {
	for _, w := range strings.Fields(`keep preserve retain leave touch change modify alter remove delete rewrite
		please with from into only that this these those them their your ours same exactly existing current all every
		intact unchanged as-is
		garde garder gardez conserve conserver conservez préserve préserver touche toucher modifie modifier change changer
		supprime supprimer interdiction jamais aucun aucune rien avec pour dans sans mais tous toutes tout même mêmes leur
		leurs votre notre cette celle celui exactement actuel actuelle actuels intacte
		mantén mantenga conserva preserva toques cambies modifiques borres elimines toque cambie modifique para como todo
		todos toda todas mismo misma esta este estos estas sobre
		mantenha mantém altere mude remova apague mexa isso esse essa todos todas mesmo mesma
		behalte bewahre ändere verändere lösche entferne berühre nicht alle diese dieser dieses genau
		behoud bewaar houd verander wijzig verwijder niet deze alle precies
		mantieni toccare modificare cambiare cancellare rimuovere questo questa tutti tutto stesso
		nguyên`) {
		guardStop[w] = true
	}
}

// guardKeys are the things a guard sentence names, for finding the same thing named again.
func guardKeys(sentence string) []string {
	var out []string
	if kana.MatchString(sentence) || strings.ContainsFunc(sentence, isHan) {
		for _, n := range latinName.FindAllString(sentence, -1) {
			out = append(out, strings.ToLower(n))
		}
	} else {
		for _, w := range guardWord.FindAllString(strings.ToLower(sentence), -1) {
			if utf8.RuneCountInString(w) < 4 || guardStop[w] || strings.Trim(w, "0123456789.%") == "" {
				continue
			}
			out = append(out, strings.TrimSuffix(w, "s"))
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// guardSaying is a guard sentence said earlier, with the things it names.
type guardSaying struct {
	saying
	keys []string
}

// sameGuard reports whether two guard sentences name the same thing: they share a thing, and it is
// at least half of what the shorter one names ("Garde 100% du copywriting de Mistral" and
// "INTERDICTION de changer mon copywriting (Mistral)" do; "NE TOUCHE PAS aux formulaires de
// diagnostic" and a list of eight things to keep on a new page that ends with its form do not).
func sameGuard(a, b []string) bool {
	shared := 0
	for _, k := range a {
		if slices.Contains(b, k) {
			shared++
		}
	}
	return shared > 0 && 2*shared >= min(len(a), len(b))
}

// repeatedGuard returns the guard sentences of a user turn that name a thing an earlier message
// of the same project asked to keep too; all of them are remembered in said, by project. A
// message that repeats two guards of one earlier message of its session is that message sent
// again, revised after a failed try: its guards are that message's, not a second saying of them.
func repeatedGuard(text string, said map[string][]guardSaying, s *extract.Session, message int) []*lesson {
	type candidate struct {
		sentence string
		keys     []string
		firsts   []saying
	}
	var cands []candidate
	resent := map[int]int{} // guards of this message matching each earlier message of the session
	for _, line := range proseLines(text) {
		for _, sentence := range splitLang(line) {
			st := tidy(stripOpeners(tidy(sentence)))
			if st == "" || len(st) > maxSentence || isQuestion(st) || strings.HasSuffix(st, "？") || hasSecret(st) || dayWords.MatchString(st) || !guardCue.MatchString(st) {
				continue
			}
			keys := guardKeys(st)
			if len(keys) == 0 {
				continue
			}
			c := candidate{sentence: st, keys: keys}
			seen := map[int]bool{}
			for _, g := range said[s.Project] {
				if g.session == s && g.message == message || strings.EqualFold(g.text, st) || !sameGuard(keys, g.keys) {
					continue
				}
				c.firsts = append(c.firsts, g.saying)
				if g.session == s && !seen[g.message] {
					seen[g.message] = true
					resent[g.message]++
				}
			}
			cands = append(cands, c)
		}
	}
	var out []*lesson
	for _, c := range cands {
		said[s.Project] = append(said[s.Project], guardSaying{saying: saying{session: s, message: message, text: c.sentence}, keys: c.keys})
		i := slices.IndexFunc(c.firsts, func(f saying) bool { return f.session != s || resent[f.message] < 2 })
		if i < 0 {
			continue
		}
		first := c.firsts[i]
		rule := strings.TrimRight(c.sentence, "。！!.")
		n := &lesson{typ: memory.Feedback, label: "asked again", rule: rule, sentence: rule, core: rule, session: s, message: message, lang: guardLang(c.sentence)}
		n.facts = factsOf(rule)
		first.again(n, "asked", "again, in other words,", s, message)
		for _, f := range c.firsts {
			n.echoes = append(n.echoes, f.text)
		}
		out = append(out, n)
	}
	return out
}

// isHan reports whether r is a Chinese character (kanji included).
func isHan(r rune) bool { return unicode.Is(unicode.Han, r) }

// guardLang names the language of a guard sentence by its cue, "" for English.
func guardLang(st string) string {
	lower := strings.ToLower(st)
	switch {
	case kana.MatchString(st):
		return "ja"
	case strings.ContainsFunc(st, isHan):
		return "zh"
	case strings.HasPrefix(lower, "keep") || strings.HasPrefix(lower, "preserve") || strings.HasPrefix(lower, "retain") || strings.HasPrefix(lower, "leave") || strings.HasPrefix(lower, "do") || strings.HasPrefix(lower, "never") || strings.HasPrefix(lower, "please"):
		return ""
	}
	for _, l := range languageCues {
		if l.cjk {
			continue
		}
		if slices.ContainsFunc(guardOpeners[l.lang], func(p string) bool { return strings.HasPrefix(lower, p) }) {
			return l.lang
		}
	}
	return ""
}

// guardOpeners are the first words of each language's guard cues, for naming its language.
var guardOpeners = map[string][]string{
	"fr": {"gard", "conserve", "préserv", "ne ", "interdiction", "s'il"},
	"es": {"mantén", "mantenga", "conserva", "preserva", "no ", "por favor"},
	"pt": {"mantenha", "mantém", "preserve", "não "},
	"de": {"behalte", "bewahre", "ändere", "verändere", "lösche", "entferne", "berühre", "bitte"},
	"nl": {"behoud", "bewaar", "houd", "verander", "wijzig", "verwijder", "alsjeblieft"},
	"vi": {"giữ", "giu", "đừng", "không", "dung", "khong"},
}

// The person may say that they are repeating themselves: "Again, keep everything simple and
// don't use external libraries.", "Como ya te dije, usa pnpm.", "我再说一遍，不要改 go.mod。". What
// follows is a rule they said before, by their own account, whether or not the earlier saying is
// in the transcripts read: a rule, not a request of the day.

// againOpener is how a sentence says it repeats what the person said before, in English and the
// languages the rules read. A bare "again" must be followed by its comma ("Again, …"): "again it
// fails" and "try again" say nothing of a rule.
var againOpener = lazyre.New(`(?i)^(?:` +
	`again\s*[,:]|once again\s*[,:]?|(?:as|like) i (?:said|told you|mentioned)(?: before| earlier)?\s*[,:]?|i repeat\s*[,:]|as mentioned(?: before| earlier)?\s*[,:]|` +
	`otra vez\s*[,:]|de nuevo\s*[,:]|como (?:ya )?te (?:dije|he dicho)\s*[,:]?|repito\s*[,:]|` +
	`encore une fois\s*[,:]?|comme je (?:te |vous )?l'ai (?:déjà )?dit\s*[,:]?|je (?:le )?répète\s*[,:]|` +
	`novamente\s*[,:]|de novo\s*[,:]|como eu (?:já )?(?:te )?disse\s*[,:]?|` +
	`nochmal\s*[,:]|noch einmal\s*[,:]|wie (?:schon )?gesagt\s*[,:]?|ich wiederhole\s*[,:]|` +
	`nogmaals\s*[,:]|zoals (?:ik al zei|ik eerder zei|ik al eerder zei|gezegd)\s*[,:]?|ik herhaal\s*[,:]|ik zei (?:het )?al\s*[,:]|` +
	`wie ich (?:schon|bereits) (?:sagte|gesagt habe)\s*[,:]?|ich sagte (?:doch|schon)\s*[,:]|comme je (?:le )?disais\s*[,:]?|como (?:ya )?dije\s*[,:]?|ya te lo dije\s*[,:]?|como (?:eu )?já (?:te )?falei\s*[,:]?|já falei\s*[,:]|` +
	`như (?:tôi |mình )?đã (?:nói|bảo)(?: ở trên| từ trước| lúc nãy)?(?: rồi)?\s*[,:]?|(?:tôi|mình|tao|anh|em) (?:đã )?(?:nói|bảo) (?:rồi|mà)(?: mà)?\s*[,:]?|nhắc lại\s*[,:]|tôi nhắc lại\s*[,:]?|` +
	`ещё раз\s*[,:]|еще раз\s*[,:]|как я (?:уже )?(?:говорил|говорила|сказал|сказала|писал|писала)\s*[,:]?|повторяю\s*[,:]|` +
	`ще раз\s*[,:]|як я (?:вже )?(?:казав|казала|писав|писала)\s*[,:]?|повторюю\s*[,:]|` +
	`tekrar ediyorum\s*[,:]?|tekrar söylüyorum\s*[,:]?|dediğim gibi\s*[,:]?|daha önce de (?:söylediğim|dediğim) gibi\s*[,:]?|` +
	`come (?:ti )?(?:ho )?(?:già )?detto\s*[,:]?|ripeto\s*[,:]|ancora una volta\s*[,:]|` +
	`jak (?:już )?(?:mówiłem|mówiłam|pisałem|pisałam)\s*[,:]?|powtarzam\s*[,:]|jeszcze raz\s*[,:]|` +
	`jak jsem (?:už )?(?:říkal|říkala|psal|psala)\s*[,:]?|opakuji\s*[,:]|ještě jednou\s*[,:]|` +
	`seperti yang (?:sudah )?(?:saya|aku) (?:bilang|katakan)\s*[,:]?|sekali lagi\s*[,:]|saya ulangi\s*[,:]?` +
	`)\s*|^(?:다시 말하지만|다시 말씀드리지만|말했듯이|말했다시피|전에 말했듯이|我再说一遍|我再說一遍|再说一遍|再說一遍|我再说一次|我再說一次|我说过了|我說過了|我已经说过|我已經說過|重申一下|我之前说过|我之前說過|之前说过|之前說過|我刚才说过|我剛才說過|跟你说过|跟你說過|说过多少次了|說過多少次了|繰り返しますが|言ったように|さっきも言ったけど|何度も言うけど|何度も言いますが|前にも言ったけど|前にも言いましたが)[,，、：:]?\s*|^(?:我说了|我說了|都说了|都說了|说了|說了)[,，、：:]\s*`)

// englishRule is how an English rule opens: what to do always, never, only, or not at all.
var englishRule = lazyre.New(`(?i)^(?:always|never|only|use|keep|make sure|avoid|stick to|prefer|don't|do not|dont)\b`)

// saidBefore returns the rules of a user turn the person says they are repeating.
func saidBefore(text string, s *extract.Session, message int, ref time.Time) []*lesson {
	var out []*lesson
	for _, line := range proseLines(text) {
		for _, sentence := range splitLang(line) {
			st := tidy(stripOpeners(tidy(sentence)))
			m := againOpener.FindString(st)
			if m == "" {
				continue
			}
			rest := upperFirst(strings.TrimSpace(st[len(m):]))
			if rest == "" || len(rest) > maxSentence || isQuestion(rest) || asksCJK(rest) || hasSecret(rest) || dayWords.MatchString(rest) || dayWordsAfar.MatchString(rest) {
				continue
			}
			basis := fmt.Sprintf("said again by the person (%q) in their %s message of %s", strings.TrimRight(strings.TrimSpace(m), ",:，、："), ordinal(message), sessionOn(s))
			if englishRule.MatchString(rest) {
				if n, ok := parseFlagged(rest, "said again", s, ref); ok {
					n.message, n.basis = message, basis
					out = append(out, n)
				}
				continue
			}
			lang, _, _, _, ok := openingCue(rest)
			if m := bareNo.FindStringSubmatch(rest); !ok && m != nil && packageName.MatchString(rest[len(m[0]):]) {
				// "As I said, no jQuery", "Zoals ik al zei: geen jQuery gebruiken": what is not
				// to be used, named.
				rule := strings.TrimRight(rest, "。！!.")
				n := &lesson{typ: memory.Feedback, label: "said again", rule: rule, sentence: rule, core: rule, session: s, message: message, lang: bareNoLang[strings.ToLower(m[1])], basis: basis}
				n.facts = factsOf(rule)
				out = append(out, n)
				continue
			}
			if !ok && !guardCue.MatchString(rest) && !cjkProhibition.MatchString(rest) && !otherProhibition.MatchString(rest) {
				continue
			}
			if !ok && !guardCue.MatchString(rest) && !cjkProhibition.MatchString(rest) {
				lang = prohibitionLang(rest) // "Dediğim gibi, jQuery kullanma."
			} else if !ok {
				lang = guardLang(rest)
			}
			rule := strings.TrimRight(rest, "。！!.")
			n := &lesson{typ: memory.Feedback, label: "said again", rule: rule, sentence: rule, core: rule, session: s, message: message, lang: lang, basis: basis}
			n.facts = factsOf(rule)
			out = append(out, n)
		}
	}
	return out
}

// bareNo is a thing forbidden by naming it after a "no": "no jQuery", "geen jQuery gebruiken",
// "kein jQuery", "pas de jQuery", "nada de jQuery", "sem jQuery", "không dùng jQuery": a rule
// only after the person says they are repeating it. The name must look like a package's.
var bareNo = lazyre.New(`(?i)^(no|geen|kein|keine|keinen|pas de|pas d'|nada de|sin|sem|nenhum|nenhuma|không dùng|không)\s+`)

// bareNoLang is the language of each of bareNo's words ("" for English).
var bareNoLang = map[string]string{"no": "", "geen": "nl", "kein": "de", "keine": "de", "keinen": "de", "pas de": "fr", "pas d'": "fr",
	"nada de": "es", "sin": "es", "sem": "pt", "nenhum": "pt", "nenhuma": "pt", "không dùng": "vi", "không": "vi"}

// launchPort is the person asking to start the app on a port: "Lance l'application en localhost
// 5173", "relance-la sur le port 51 73" (dictated), "run the dev server on port 3000", "在 8080
// 端口启动". One such request is the task at hand; the same port asked for in two sessions of a
// project is where its app is run.
var launchPort = lazyre.New(`(?i)(?:^|[^\p{L}])(?:run|start|launch|restart|relaunch|serve|spin up|boot|lance|relance|lancer|relancer|démarre|redémarre|démarrer|redémarrer|lanza|arranca|levanta|ejecuta|inicia|reinicia|avvia|lancia|riavvia|esegui|starte|starten|neu starten|rode|inicie|suba|reinicie|execute|chạy|khởi động|запусти|перезапусти)(?:[^\p{L}][^.!?\n]{0,80}?)?(?:[^\p{L}](?:port|porta|puerto|localhost|порт|cổng|sur le|sur|on|at|sul|auf))\s*:?\s*(?P<port>\d{2,5}(?: \d{1,3})?)(?:[^\d]|$)|(?:启动|啟動|运行|運行|重启|重啟|跑)[^。！？\n]{0,40}?(?:端口|localhost:?)\s*(?P<zhport>\d{2,5})|(?P<zhport2>\d{2,5})\s*端口\s*(?:启动|啟動|运行|運行|重启|重啟|上跑)`)

// repeatedPort returns, for each port a user turn asks the app to be started on that a message
// of another session of the project asked for too, a lesson that the app is run there; the first
// asking is remembered in said.
func repeatedPort(text string, said map[string]saying, s *extract.Session, message int) []*lesson {
	var out []*lesson
	for _, line := range proseLines(text) {
		for _, m := range launchPort.FindAllStringSubmatch(line, -1) {
			port := strings.ReplaceAll(named(launchPort, m, "port")+named(launchPort, m, "zhport")+named(launchPort, m, "zhport2"), " ", "")
			if p, err := strconv.Atoi(port); err != nil || p < 1024 || p > 65535 {
				continue
			}
			key := "port\x00" + s.Project + "\x00" + port
			first, ok := said[key]
			if !ok {
				said[key] = saying{session: s, message: message}
				continue
			}
			if first.session.ID == s.ID {
				continue // asked again in one session: the same task
			}
			rule := "The app is run on port " + port + "."
			n := &lesson{typ: memory.Project, label: "port asked again", rule: rule, sentence: rule, core: rule, session: s, message: message}
			n.facts = factsOf(rule)
			first.again(n, "asked for", "again", s, message)
			out = append(out, n)
		}
	}
	return out
}
