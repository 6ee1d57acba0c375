package offline

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/dreamd/dreamd/internal/extract"
	"github.com/dreamd/dreamd/internal/lazyre"
	"github.com/dreamd/dreamd/internal/memory"
)

// The person's rules in other languages than English. The English phrasing rules (forms.go,
// lead.go) read English only; in the languages below a rule is recognised by how it opens, as
// the English "always / never / remember that / from now on" are, and kept as it was said.

// cueStrength is how much a cue says on its own.
type cueStrength int

const (
	// standingCue cues say the rule holds beyond the task at hand: always, never, remember, from now on.
	standingCue cueStrength = iota
	// requestCue cues ("don't use …") are one-off requests unless they follow a correction cue.
	requestCue
	// correctingCue cues open a correction: "no, …", "不对，…".
	correctingCue
)

// languageCues are, per language, the openings of a sentence that mark a rule. A cue in a
// language written with spaces must end at a word boundary; CJK cues need none.
var languageCues = []struct {
	lang string // ISO 639-1
	cjk  bool
	cues map[cueStrength][]string
}{
	{"zh", true, map[cueStrength][]string{
		standingCue:   {"注意：我们", "注意:我们", "注意，我们", "注意我们", "注意我們", "注意：我們", "请注意，我们", "請注意，我們", "注意：项目", "注意：本项目", "注意：这个项目", "注意，这个项目", "忘了说", "忘了說", "忘记说", "忘記說", "重要的是", "很重要的是", "总是", "總是", "始终", "始終", "一律", "永远不要", "永遠不要", "永远别", "绝对不要", "絕對不要", "千万不要", "千萬不要", "记住", "記住", "别忘了", "別忘了", "不要忘记", "不要忘記", "请记住", "請記住", "要记得", "记得", "以后都", "以後都", "以后不要", "以後不要", "以后请", "以後請", "今后", "今後", "从现在开始", "從現在開始", "从今以后", "從今以後", "务必", "務必", "默认", "默認"},
		requestCue:    {"不要", "别", "別", "请勿", "請勿", "禁止", "不许", "不許", "请不要", "請不要", "请用", "請用", "要用"},
		correctingCue: {"不对", "不對", "不是这样", "不是這樣", "错了", "錯了", "不，", "不,", "等等", "更正"},
	}},
	{"ja", true, map[cueStrength][]string{
		standingCue:   {"メモリに保存して", "記憶しておいて", "言い忘れましたが", "言い忘れたけど", "重要なのは", "常に", "いつも", "必ず", "絶対に", "決して", "覚えておいて", "覚えといて", "忘れないで", "今後", "これからは", "以後", "デフォルトで"},
		requestCue:    {"使わないで", "しないで"},
		correctingCue: {"いいえ", "違う", "違います", "そうじゃなくて", "ちがう", "待って", "訂正"},
	}},
	{"es", false, map[cueStrength][]string{
		standingCue:   {"desde ahora", "de ahora en adelante", "guarda esto en tu memoria:", "guarda en tu memoria:", "guarda en memoria:", "guarda en tu memoria que", "guarda en memoria que", "memoriza que", "siempre", "nunca", "jamás", "recuerda que", "recuerda:", "recuerda", "recuerde", "recuerden", "acuérdate", "no olvides que", "no olvides", "no te olvides de", "acuérdate de que", "acuérdate de", "ten en cuenta que", "olvidé mencionarte que", "olvide mencionarte que", "olvidé mencionar que", "olvidé decirte que", "olvide decirte que", "se me olvidó decirte que", "es muy importante que", "es importante que", "muy importante:", "importante:", "está prohibido", "prohibido", "a partir de ahora", "de ahora en adelante", "en el futuro", "por defecto", "no vuelvas a"},
		requestCue:    {"no uses", "no utilices", "no hagas", "no pongas", "usa", "utiliza"},
		correctingCue: {"no,", "no.", "eso no", "te equivocas", "está mal", "espera,", "corrección", "correccion"},
	}},
	{"pt", false, map[cueStrength][]string{
		standingCue:   {"de agora em diante", "daqui em diante", "grave essa informação:", "grave esta informação:", "salve isso na memória:", "salve na memória:", "guarde isso na memória:", "guarde na memória:", "salve na memória que", "guarde na memória que", "memorize que", "sempre", "nunca", "jamais", "lembre-se de que", "lembre-se que", "não esqueça de", "não esqueça que", "não se esqueça de", "lembre-se", "lembra que", "lembre que", "lembre de", "lembra de", "esqueci de dizer que", "esqueci de mencionar que", "é muito importante que", "é importante que", "importante:", "é proibido", "proibido", "a partir de agora", "daqui pra frente", "daqui para frente", "no futuro", "por padrão"},
		requestCue:    {"não use", "não usa", "não utilize", "utilize"},
		correctingCue: {"não,", "não.", "errado", "está errado", "espera,", "correção", "correcao"},
	}},
	{"fr", false, map[cueStrength][]string{
		standingCue:   {"mémorise que", "mémorise :", "garde en mémoire que", "toujours", "jamais", "ne jamais", "n'utilise jamais", "n'utilisez jamais", "souviens-toi que", "souvenez-vous que", "n'oublie pas de", "n'oublie pas que", "n'oubliez pas de", "n'oubliez pas que", "rappelle-toi que", "retiens que", "j'ai oublié de dire que", "j'ai oublié de te dire que", "j'ai oublié de vous dire que", "j'ai oublié de préciser que", "il est très important que", "il est important que", "c'est très important :", "important :", "interdiction de", "il est interdit de", "à partir de maintenant", "désormais", "dorénavant", "à l'avenir", "par défaut"},
		requestCue:    {"n'utilise pas", "n'utilisez pas", "ne mets pas", "utilise", "utilisez"},
		correctingCue: {"non,", "non.", "c'est faux", "pas ça", "attends,", "attendez,", "correction", "petite correction"},
	}},
	{"de", false, map[cueStrength][]string{
		standingCue:   {"speichere dir", "speicher dir", "merke dir", "beachte:", "beachte, dass", "beachten sie:", "hinweis:", "zur info:", "immer", "nie", "niemals", "merk dir", "merke dir", "denk daran", "denke daran", "denk dran", "vergiss nicht", "ich habe vergessen zu sagen, dass", "ich habe vergessen zu erwähnen, dass", "es ist sehr wichtig, dass", "es ist wichtig, dass", "wichtig:", "es ist verboten", "verboten:", "ab jetzt", "von nun an", "künftig", "zukünftig", "in zukunft", "standardmäßig"},
		requestCue:    {"verwende kein", "benutze kein", "nutze kein", "verwende", "benutze", "nutze"},
		correctingCue: {"nein,", "nein.", "falsch", "das stimmt nicht", "warte,", "korrektur"},
	}},
	{"nl", false, map[cueStrength][]string{
		standingCue:   {"sla in je geheugen op dat", "sla dit op in je geheugen:", "sla op in je geheugen:", "let op:", "let op dat", "let op,", "let wel:", "altijd", "nooit", "onthoud", "vergeet niet", "denk eraan", "denk er aan", "ik vergat te zeggen dat", "ik ben vergeten te zeggen dat", "het is heel belangrijk dat", "het is belangrijk dat", "belangrijk:", "het is verboden", "voortaan", "vanaf nu", "in de toekomst", "standaard"},
		requestCue:    {"gebruik geen", "gebruik niet", "gebruik"},
		correctingCue: {"nee,", "nee.", "fout", "dat klopt niet", "wacht,", "correctie"},
	}},
	{"vi", false, map[cueStrength][]string{
		// Vietnamese is often typed without its marks: "luon dung pnpm", "tu gio chay make lint".
		standingCue:   {"lưu vào bộ nhớ", "hãy lưu vào bộ nhớ", "lưu lại vào bộ nhớ", "luu vao bo nho", "lưu ý là", "lưu ý rằng", "lưu ý:", "xin lưu ý", "luu y la", "luu y:", "luon luon", "luon", "khong bao gio", "dung bao gio", "nho rang", "hay nho", "ghi nho", "tu gio", "tu nay", "tu bay gio", "mac dinh", "quan trong la", "luôn luôn", "luôn", "không bao giờ", "đừng bao giờ", "nhớ rằng", "hãy nhớ", "đừng quên", "ghi nhớ", "quên nói là", "quên nói rằng", "quan trọng là", "điều quan trọng là", "cấm", "không được", "khong duoc", "nhớ là", "nhớ", "từ giờ", "từ nay", "từ bây giờ", "mặc định"},
		requestCue:    {"đừng dùng", "không dùng", "đừng", "hãy dùng", "dùng"},
		correctingCue: {"không,", "không.", "sai rồi", "không phải", "khoan đã", "chờ đã", "sửa lại"},
	}},
	{"ru", false, map[cueStrength][]string{
		// Russian imperatives come in both aspects: запомни and запоминай, не забудь and не забывай.
		standingCue:   {"всегда", "никогда", "ни в коем случае", "запомни", "запомните", "запоминай", "не забудь", "не забудьте", "не забывай", "не забывайте", "помни", "помните", "с этого момента", "с этих пор", "с сегодняшнего дня", "впредь", "отныне", "в дальнейшем", "в будущем", "по умолчанию", "забыл сказать", "забыла сказать", "я забыл сказать", "я забыла сказать", "очень важно", "важно, чтобы", "важно:", "обязательно", "запрещено"},
		requestCue:    {"не используй", "не используйте", "не надо", "не нужно", "используй", "используйте"},
		correctingCue: {"нет,", "нет.", "неправильно", "не так", "это неверно", "подожди,", "постой,", "стоп,", "исправление"},
	}},
	{"uk", false, map[cueStrength][]string{
		standingCue:   {"завжди", "ніколи", "в жодному разі", "запам'ятай", "запам’ятай", "запам'ятайте", "запам’ятайте", "не забудь", "не забувай", "не забудьте", "пам'ятай", "пам’ятай", "відтепер", "надалі", "з цього моменту", "у майбутньому", "за замовчуванням", "забув сказати", "забула сказати", "дуже важливо", "важливо, щоб", "важливо:", "обов'язково", "обов’язково", "заборонено"},
		requestCue:    {"не використовуй", "не використовуйте", "не треба", "використовуй", "використовуйте"},
		correctingCue: {"ні,", "ні.", "неправильно", "не так", "зачекай,", "стоп,", "виправлення"},
	}},
	{"tr", false, map[cueStrength][]string{
		// Turkish adds its endings to the word: "unutmayın", "kullanmayın", "hatırlayın" open with
		// the cue's stem, so these cues match at a word's start (turkishStems).
		standingCue:   {"her zaman", "daima", "asla", "hiçbir zaman", "hiç bir zaman", "unutma", "şunu unutma", "hatırla", "aklında tut", "aklınızda tutun", "bundan sonra", "bundan böyle", "artık her zaman", "varsayılan olarak", "çok önemli", "önemli:", "şunu söylemeyi unuttum", "söylemeyi unuttum", "yasak"},
		requestCue:    {"kullanma", "kullan"},
		correctingCue: {"hayır,", "hayır.", "yanlış", "öyle değil", "bekle,", "dur,", "düzeltme"},
	}},
	{"it", false, map[cueStrength][]string{
		standingCue:   {"sempre", "mai", "non usare mai", "non fare mai", "ricorda che", "ricordati che", "ricordati di", "ricorda di", "ricordati", "ricorda", "non dimenticare di", "non dimenticare che", "non dimenticarti di", "tieni presente che", "tieni a mente che", "d'ora in poi", "da ora in poi", "da adesso in poi", "d'ora in avanti", "da ora", "da adesso", "in futuro", "per impostazione predefinita", "di default", "è molto importante che", "è importante che", "importante:", "ho dimenticato di dirti che", "mi sono dimenticato di dirti che", "mi sono dimenticata di dirti che", "ho dimenticato di dire che", "è vietato", "vietato"},
		requestCue:    {"non usare", "non utilizzare", "usa", "utilizza"},
		correctingCue: {"no,", "no.", "sbagliato", "è sbagliato", "non è così", "aspetta,", "correzione"},
	}},
	{"pl", false, map[cueStrength][]string{
		standingCue:   {"zawsze", "nigdy", "pod żadnym pozorem", "zapamiętaj", "zapamiętaj, że", "pamiętaj, że", "pamiętaj o", "pamiętaj", "nie zapomnij", "nie zapominaj", "od teraz", "od tej pory", "odtąd", "w przyszłości", "domyślnie", "bardzo ważne", "ważne jest, żeby", "ważne jest, aby", "ważne:", "zapomniałem powiedzieć, że", "zapomniałam powiedzieć, że", "zapomniałem dodać, że", "zabronione"},
		requestCue:    {"nie używaj", "nie używajcie", "używaj", "użyj"},
		correctingCue: {"nie,", "nie.", "źle", "to nie tak", "to jest błędne", "czekaj,", "poczekaj,", "korekta", "poprawka"},
	}},
	{"cs", false, map[cueStrength][]string{
		standingCue:   {"vždy", "vždycky", "nikdy", "v žádném případě", "pamatuj si", "zapamatuj si", "nezapomeň", "nezapomeňte", "od teď", "odteď", "od nynějška", "do budoucna", "v budoucnu", "ve výchozím nastavení", "je velmi důležité, aby", "je důležité, aby", "důležité:", "zapomněl jsem říct, že", "zapomněla jsem říct, že", "zakázáno"},
		requestCue:    {"nepoužívej", "nepoužívejte", "používej", "použij"},
		correctingCue: {"ne,", "ne.", "špatně", "to není pravda", "to není správně", "počkej,", "oprava"},
	}},
	{"ko", false, map[cueStrength][]string{
		// Korean is written with spaces, its particles joined to the word before: "앞으로는".
		standingCue:   {"항상", "언제나", "늘", "절대", "절대로", "반드시", "무조건", "기억해", "기억해줘", "기억해 줘", "기억해 주세요", "기억하세요", "잊지 마", "잊지 마세요", "잊지 말고", "잊지 말아줘", "앞으로", "앞으로는", "앞으로도", "지금부터", "지금부터는", "이제부터", "이제부터는", "기본적으로", "기본값으로", "중요한 건", "중요한 것은", "말 안 했는데", "깜빡했는데"},
		requestCue:    {"사용하지 마", "쓰지 마", "사용해", "써"},
		correctingCue: {"아니,", "아니요,", "아니야,", "아니요.", "틀렸어", "틀렸어요", "그게 아니라", "잠깐,", "잠깐만,", "정정"},
	}},
	{"id", false, map[cueStrength][]string{
		// Indonesian and Malay share these: selalu / sentiasa, jangan pernah / jangan sesekali.
		standingCue:   {"selalu", "sentiasa", "jangan pernah", "jangan sekali-kali", "jangan sesekali", "ingat", "ingatlah", "ingat bahwa", "ingat ya", "jangan lupa", "mulai sekarang", "mulai saat ini", "mulai dari sekarang", "ke depannya", "kedepannya", "ke depan", "seterusnya", "secara default", "secara bawaan", "sangat penting", "penting:", "yang penting", "saya lupa bilang", "aku lupa bilang", "lupa bilang", "saya lupa menyebutkan", "dilarang"},
		requestCue:    {"jangan gunakan", "jangan pakai", "jangan menggunakan", "gunakan", "pakai"},
		correctingCue: {"bukan,", "tidak,", "salah", "itu salah", "bukan begitu", "tunggu,", "koreksi", "ralat"},
	}},
}

// dayWords are how a sentence in these languages says it is about now or later, not a habit:
// "以后再说" (later), "ahora mismo" (right now).
var dayWords = lazyre.New(`(?i)再说|再說|再看|这次|這次|今天|今回|今日|ahora mismo|hoy|hoje|agora mesmo|aujourd'hui|heute|gerade|vandaag|nu even|hôm nay|bây giờ thì|lần này|por ahora|por el momento|de momento|por enquanto|pour le moment|pour l'instant|pour cette fois|im moment|vorerst|voorlopig|tạm thời|暂时|暫時|とりあえず|ひとまず|` +
	// yesterday and tomorrow: what happened, what is planned ("Recuerda, ayer lo arreglamos")
	`là mai|mai có|mai là|sáng mai|chiều mai|tối mai|mai mình|mai tôi|我再|再找你|再联系|再聯繫|再聊|再问|再問|\byesterday\b|\btomorrow\b|\bayer\b|mañana|\bhier\b|demain|gestern|\bmorgen\b|gisteren|\bontem\b|amanhã|\bieri\b|domani|hôm qua|ngày mai|昨天|明天|昨日|明日`)

// dayWordsAfar are the same in the languages whose words Go's \b does not bound (Cyrillic,
// Latin letters with marks): each must stand as a word of its own; Korean's take a particle
// (오늘은). "Now" alone is none of them: it opens "from now on" (od teď, mulai sekarang).
var dayWordsAfar = lazyre.New(`(?i)(?:^|[^\p{L}])(?:сейчас|сегодня|пока что|пока|на этот раз|в этот раз|зараз|сьогодні|поки що|поки|цього разу|bugün|şimdilik|şimdi|bu sefer|bu kez|oggi|per ora|per il momento|per adesso|questa volta|dzisiaj|dziś|na razie|tym razem|dnes|zatím|prozatím|tentokrát|hari ini|untuk sekarang|untuk saat ini|sementara|kali ini)(?:[^\p{L}]|$)|오늘|이번에는|이번엔|일단|당분간|지금은`)

// langSentence splits a line into sentences at CJK and Latin sentence ends.
var langSentence = lazyre.New(`[。！？]|[.!?;](?:\s+|$)|；|\.[-•]\s|\.\d{1,2}\.\s?`)

// langLesson is one rule said in another language than English.
type langLesson struct {
	lang, cue, text string
	strength        cueStrength
}

// otherLanguageRules returns the rules a user turn states in the languages of languageCues, in
// order. A request cue counts when a correction cue opens the sentence ("no, no uses Chart.js")
// or the sentence before it.
func otherLanguageRules(text string) []langLesson {
	var out []langLesson
	corrected := false // the sentence before opened a correction; a heading line's goes on to the next line
	// A message in which the person says they had it wrong corrects what they asked before:
	// its requests stand ("不要用animator，用actor,我之前说错了").
	selfCorrected := selfCorrection.MatchString(text)
	for _, line := range proseLines(text) {
		for _, sentence := range splitLang(line) {
			s := tidy(sentence)
			if s == "" || len(s) > maxSentence || isQuestion(s) || asksCJK(s) || hasSecret(s) || dayWords.MatchString(s) || dayWordsAfar.MatchString(s) {
				continue
			}
			if g := generalOpener.FindString(s); g == "" || !wantOpener.MatchString(s[len(g):]) {
				s = stripOpeners(s) // "En general" is no Dutch "en" (and) going on
			}
			said := s
			if g := generalOpener.FindString(s); g != "" && wantOpener.MatchString(s[len(g):]) {
				// "De manière générale, je souhaite que le code soit factorisé au maximum."
				out = append(out, langLesson{lang: generalLang(g), cue: strings.ToLower(strings.TrimRight(g, " ,")), text: upperFirst(strings.TrimRight(said, "。！.! ")), strength: standingCue})
				corrected = false
				continue
			}
			if m := ruleLabel.FindStringSubmatch(s); m != nil && hasLetters(s[len(m[0]):]) && !isQuestion(s[len(m[0]):]) {
				// "Regla: nunca hagas push a main", "原则：数据缺失时必须问我": the person names it a rule.
				out = append(out, langLesson{lang: ruleLabelLang(m[1]), cue: strings.ToLower(m[1]) + ":", text: upperFirst(strings.TrimRight(said, "。！.! ")), strength: standingCue})
				corrected = false
				continue
			}
			if lang, cue, ok := scopedRule(s); ok {
				// "À chaque fois que tu modifies le code, lance les tests": standing by what it covers.
				out = append(out, langLesson{lang: lang, cue: cue, text: upperFirst(strings.TrimRight(said, "。！.! ")), strength: standingCue})
				corrected = false
				continue
			}
			if rest, flag, lang, ok := cutOtherFlag(s); ok {
				// "O servidor de produção é o 10.0.0.5, grave essa informação": flagged afterwards.
				out = append(out, langLesson{lang: lang, cue: flag, text: upperFirst(strings.TrimRight(rest, "。！.! ,，")), strength: standingCue})
				corrected = false
				continue
			}
			probe := s
			if w := wantOpener.FindString(s); w != "" {
				if _, c, st, _, ok := openingCue(s[len(w):]); ok && st == standingCue && fromNowCues[c] {
					probe = s[len(w):] // "Je souhaite dorénavant que tu me parles en français"
				}
			}
			lang, cue, strength, rest, ok := openingCue(probe)
			if ok && strength == correctingCue {
				if rest == "" {
					corrected = true
					continue
				}
				// "no, no uses Chart.js": the correction's rule is what follows it.
				if l2, cue2, s2, rest2, ok2 := openingCue(rest); ok2 && s2 != correctingCue && (l2 == lang || hasCue(l2, correctingCue, cue)) {
					said, cue, strength, rest = rest, cue2, standingCue, rest2
				} else if c := finalProhibition.FindString(rest); c != "" && (lang == "tr" || lang == "ko") {
					// Turkish and Korean forbid at the sentence's end: "Hayır, moment.js kullanma."
					said, cue, strength = rest, strings.TrimSpace(c), standingCue
				} else if c, ok2 := correctedClause(lang, rest); ok2 {
					// The correction goes on to say what holds, in a clause of its own: "不对，我们不用
					// Redux，状态管理统一用 Zustand", "Nee, we gebruiken geen Redux, voor state
					// management gebruiken we altijd Zustand".
					said, cue, strength = rest, c, standingCue
				} else {
					corrected = true
					continue
				}
			}
			if ok && strength == requestCue && (corrected || selfCorrected) {
				strength = standingCue
			}
			if ok && strength == requestCue {
				// A request's opening may still say the rule stands: "Gebruik altijd …", "别用 X 了".
				if l2, c2, ok2 := orderedCue(s); ok2 {
					lang, cue, strength, rest = l2, c2, standingCue, s
				} else if l2, c2, ok2 := switchCue(s); ok2 {
					lang, cue, strength, rest = l2, c2, standingCue, s
				}
			}
			if !ok {
				// Chinese and Japanese put the topic first: "这个项目以后都用 pnpm",
				// "このリポジトリでは今後は pnpm を使ってください"; Dutch and German put the verb
				// first or last ("Gebruik altijd X", "X nooit gebruiken"); a switch says it stands
				// ("geen X meer", "别用 X 了", "dùng Y thay vì X").
				lang, cue, ok = orderedCue(s)
				if !ok {
					lang, cue, ok = switchCue(s)
				}
				if !ok {
					lang, cue, ok = midCue(s)
				}
				strength, rest = standingCue, s
			}
			if ok && rememberCues[cue] && len(strings.Fields(rest)) < 2 {
				ok = false // "Lembre de mim", "Ricordati di me": remember me
			}
			// A rule that ends in a colon ("…，而是：") is said by what follows it, not kept here.
			if !ok || strength != standingCue || !hasLetters(rest) || describes(lang, cue, rest) || endsInColon(said) {
				corrected = false
				continue
			}
			out = append(out, langLesson{lang: lang, cue: cue, text: upperFirst(strings.TrimRight(said, "。！.! ")), strength: strength})
			corrected = false
		}
	}
	return out
}

// rememberCues are the bare "remember" of languages whose "remember me" opens the same way:
// what follows must say more than a word.
var rememberCues = wordSet("recuerda recuerde recuerden acuérdate lembre-se ricordati ricorda nhớ")

func init() {
	for _, c := range []string{"lembre de", "lembra de", "denk eraan", "denk er aan", "denk dran"} {
		rememberCues[c] = true
	}
}

// finalProhibition is how Turkish and Korean forbid a thing, after it: "moment.js kullanma",
// "moment.js 사용하지 마".
var finalProhibition = lazyre.New(`(?i)\s(?:kullanma|kullanmayın|kullanmayin|kullanmasın|사용하지 마|사용하지 마세요|쓰지 마|쓰지 마세요)[.!。]?$`)

// hasCue reports whether cue is one of lang's cues of the strength given: "no," opens a
// correction in Spanish and Italian both.
func hasCue(lang string, strength cueStrength, cue string) bool {
	for _, l := range languageCues {
		if l.lang == lang {
			return slices.Contains(l.cues[strength], cue)
		}
	}
	return false
}

// openers are what may come before a rule's cue without changing it: a list's number, a label in
// capitals ("2. MOTEUR INTACT :"), a word that only goes on from the message before ("Ahora,",
// "Et", "还有").
var (
	capsLabel = lazyre.New(`^[\p{Lu}\p{N}][\p{Lu}\p{N} &'/_-]{1,40}\s*[:：]\s*`)
	goingOn   = lazyre.New(`(?i)^(?:ahora|y|también|además|bien|vale|bueno|pues|entonces|et|aussi|alors|bon|d'accord|donc|puis|und|auch|gut|dann|en|ook|oké|dus|verder|e|então|agora|também|và|cũng|vậy|rồi|ok|okay)(?:\s*,\s*|\s+)|^(?:好的|好|那么|那|然后|還有|还有|另外|あと|それと|じゃあ)[,，、]?\s*`)
)

// selfCorrection is the person saying that what they asked before was wrong: "我之前说错了" (I
// said it wrong before), "je me suis trompé", "me equivoqué", "ich habe mich vertan".
var selfCorrection = lazyre.New(`(?i)我(?:之前|刚才|剛才|前面|刚刚|剛剛)?(?:说错了|說錯了|搞错了|搞錯了|写错了|寫錯了)|言い間違え|(?:^|[^\p{L}])(?:je me suis trompée?|je me suis mal exprimée?|j'ai mal dit|me equivoqué|me equivoque|me expresé mal|dije mal|mi sono sbagliat[oa]|ho detto male|ich habe mich (?:vertan|versprochen|geirrt)|ik heb me vergist|ik vergiste me|eu me enganei|falei errado|me enganei|tôi nói nhầm|tôi nhầm|mình nói nhầm|я ошибся|я ошиблась|я неправильно сказала?)(?:[^\p{L}]|$)`)

// wantOpener is the person saying they want what follows; before a cue of time ("Je souhaite
// dorénavant que tu me parles en français", "Quiero que a partir de ahora …", "Vorrei che d'ora
// in poi …") the rule is what they want from then on. Only cues of time may follow it: "je veux
// toujours voir le nombre" is "I still want to see the number".
var wantOpener = lazyre.New(`(?i)^(?:je (?:veux|voudrais|souhaite|souhaiterais|préfère)|j'aimerais|quiero|quisiera|prefiero|me gustaría|me gustaria|quero|gostaria|prefiro|voglio|vorrei|preferisco|ich (?:will|möchte|hätte gern)|ik wil|ik zou graag)(?: (?:que|che|dass|dat))?\s+`)

// fromNowCues are the standing cues that say from when a rule holds: after a want (wantOpener)
// they still say it.
var fromNowCues = map[string]bool{
	"à partir de maintenant": true, "désormais": true, "dorénavant": true, "à l'avenir": true,
	"a partir de ahora": true, "de ahora en adelante": true, "en el futuro": true,
	"a partir de agora": true, "daqui pra frente": true, "daqui para frente": true, "no futuro": true, "de agora em diante": true, "daqui em diante": true, "desde ahora": true,
	"d'ora in poi": true, "da ora in poi": true, "da adesso in poi": true, "d'ora in avanti": true, "da ora": true, "da adesso": true, "in futuro": true,
	"ab jetzt": true, "ab sofort": true, "von nun an": true, "künftig": true, "in zukunft": true,
	"voortaan": true, "vanaf nu": true, "in de toekomst": true,
}

// generalOpener says what follows holds in general; before a want ("De manière générale, je
// souhaite que le code soit factorisé au maximum", "En general, quiero que …") it states a
// standing preference. Alone it describes ("En general funciona bien"), and is no cue.
var generalOpener = lazyre.New(`(?i)^(?:de manière générale|de façon générale|d'une manière générale|en règle générale|en général|en general|por lo general|por regla general|in generale|in linea di massima|em geral|de modo geral|de forma geral|generell|grundsätzlich|im allgemeinen|in het algemeen|over het algemeen)\s*,?\s*`)

// ruleLabel is a sentence the person opens by naming it a rule, a principle or a convention, in
// the languages the rules read ("Regel: …", "Quy tắc: …", "nguyên tắc bổ sung: …", "规则：…"; not
// Turkish "Kural:", which opens the moment's exhortations as often as rules): a
// word or two may qualify the label before its colon.
var ruleLabel = lazyre.New(`(?i)^((?:regla|norma|règle|regel|regra|regola|quy tắc|nguyên tắc|quy định|quy ước|правило|zasada|pravidlo|aturan|konvention|conventie|convención|convention|convenção)(?:\s+\p{L}+){0,2}|(?:формат\s+ответ(?:а|ов)|formato\s+de\s+(?:la\s+)?respuesta|formato\s+da\s+resposta|format\s+de\s+(?:la\s+)?réponse|antwortformat|format\s+van\s+(?:het\s+)?antwoord|định\s+dạng\s+(?:câu\s+)?trả\s+lời|(?:回答|回复|回覆|答复)格式|返答(?:の)?(?:形式|フォーマット)|(?:응답|답변)\s*형식)|(?:规则|規則|原则|原則|规范|規範|约定|約定|守则|守則)[^：:，,]{0,6})\s*[:：]\s*`)

// otherFlag is the person flagging what they just said, at the sentence's end, in the languages
// of languageCues: "…, grave essa informação", "…, guarda esto en tu memoria", "…, retiens-le",
// "…, merk dir das", "…, onthoud dat", "…, ghi nhớ điều này", "…，记住这个".
var otherFlag = lazyre.New(`(?i)(?:\s*[,;.，；。]\s*|\s+(?:—|–|-)\s+)(?:e\s+|y\s+|et\s+|und\s+|en\s+|và\s+|请|請)?(grave (?:essa|esta|isso) informa[çc][ãa]o|grave isso|guarde (?:isso|isto|essa informa[çc][ãa]o)|salve (?:isso|isto|essa informa[çc][ãa]o) na mem[óo]ria|lembre-se disso|guarda (?:esto|eso|esta informaci[óo]n)(?: en (?:tu )?memoria)?|recu[ée]rdalo|tenlo en cuenta|retiens(?:-le| [çc]a| cela)|garde (?:[çc]a|cela|le) en m[ée]moire|souviens-t'en|merk dir das|behalte das(?: im (?:kopf|hinterkopf|ged[äa]chtnis))?|onthoud (?:dat|dit)|ghi nh[ớo] (?:đi[ềe]u n[àa]y|nh[ée])|nh[ớo] (?:đi[ềe]u n[àa]y|nh[ée])|h[ãa]y nh[ớo] (?:đi[ềe]u n[àa]y|nh[ée])|记住(?:这个|这一点|这点)?|記住(?:這個|這一點|這點)?|记下来|記下來|覚えておいて)(?:\s+e\s+salve[^.!]*)?\s*[.!！。]*$`)

// otherFlagLangs name the language of each of otherFlag's flags by its first word; the rest,
// ghi nhớ, nhớ, hãy nhớ, are Vietnamese.
var otherFlagLangs = []struct{ prefix, lang string }{
	{"覚", "ja"}, {"记", "zh"}, {"記", "zh"},
	{"grave", "pt"}, {"guarde", "pt"}, {"salve", "pt"}, {"lembre", "pt"},
	{"guarda", "es"}, {"recu", "es"}, {"tenlo", "es"},
	{"retiens", "fr"}, {"garde", "fr"}, {"souviens", "fr"},
	{"merk", "de"}, {"behalte", "de"}, {"onthoud", "nl"},
}

// cutOtherFlag cuts a flag of otherFlag off the end of s: what was flagged, the flag, and its
// language. What was flagged must say something (three words, five characters of Chinese).
func cutOtherFlag(s string) (rest, flag, lang string, ok bool) {
	m := otherFlag.FindStringSubmatchIndex(s)
	if m == nil {
		return s, "", "", false
	}
	rest, flag = strings.TrimSpace(s[:m[0]]), s[m[2]:m[3]]
	if !hasLetters(rest) || len(strings.Fields(rest)) < 3 && utf8.RuneCountInString(rest) < 5 || leansBack(rest) {
		return s, "", "", false
	}
	lower := strings.ToLower(flag)
	lang = "vi"
	for _, fl := range otherFlagLangs {
		if strings.HasPrefix(lower, fl.prefix) {
			lang = fl.lang
			break
		}
	}
	return rest, flag, lang, true
}

// ruleLabelLang is the language of a ruleLabel's word.
func ruleLabelLang(label string) string {
	l := strings.ToLower(strings.Fields(label + " x")[0])
	switch {
	case strings.HasPrefix(l, "返答"):
		return "ja"
	case isHan([]rune(l)[0]):
		return "zh"
	case l == "quy" || l == "nguyên":
		return "vi"
	case l == "regla" || l == "norma" || l == "convención":
		return "es"
	case l == "règle" || l == "convention":
		return "fr"
	case l == "regel" || l == "conventie": // German's Regel too: the language names the memory only
		return "nl"
	case l == "konvention":
		return "de"
	case l == "regra" || l == "convenção":
		return "pt"
	case l == "regola":
		return "it"
	case l == "правило" || l == "формат":
		return "ru"
	case l == "formato" && strings.Contains(strings.ToLower(label), "respuesta"):
		return "es"
	case l == "formato":
		return "pt"
	case l == "format" && strings.Contains(strings.ToLower(label), "réponse"):
		return "fr"
	case l == "format":
		return "nl"
	case l == "antwortformat":
		return "de"
	case l == "định":
		return "vi"
	case strings.HasPrefix(l, "응답") || strings.HasPrefix(l, "답변"):
		return "ko"
	case l == "zasada":
		return "pl"
	case l == "pravidlo":
		return "cs"
	case l == "aturan":
		return "id"
	}
	return ""
}

// generalLang is the language of a generalOpener.
func generalLang(opener string) string {
	o := strings.ToLower(opener)
	switch {
	case strings.Contains(o, "génér") || strings.Contains(o, "manière") || strings.Contains(o, "façon"):
		return "fr"
	case strings.HasPrefix(o, "in generale") || strings.HasPrefix(o, "in linea"):
		return "it"
	case strings.HasPrefix(o, "em ") || strings.HasPrefix(o, "de modo") || strings.HasPrefix(o, "de forma"):
		return "pt"
	case strings.HasPrefix(o, "generell") || strings.HasPrefix(o, "grundsätzlich") || strings.HasPrefix(o, "im "):
		return "de"
	case strings.HasPrefix(o, "in het") || strings.HasPrefix(o, "over het"):
		return "nl"
	}
	return "es"
}

// stripOpeners removes the openers of a sentence, repeatedly.
func stripOpeners(s string) string {
	for range 4 {
		t := listMarker.ReplaceAllString(s, "")
		t = capsLabel.ReplaceAllString(t, "")
		if m := goingOn.FindString(t); m != "" && len(m) < len(t) {
			t = t[len(m):]
		}
		if t == s {
			return s
		}
		s = strings.TrimSpace(t)
	}
	return s
}

// midCues are the cues of languages that put the topic first, found anywhere in a sentence: only
// those that cannot be about the moment. Japanese asks for a standing rule with a request's
// ending (…してください, …しないで, …ように, …こと), so its cues count only before one.
var (
	zhMidCue  = lazyre.New(`(?i)(?:commit\s*message|提交信息|提交說明|注释|註釋|变量名|變數名|函数名|函數名|命名|回答|回复|回覆)(?:都|一律|需要|必须|必須|要|应该|應該)+(?:简洁|簡潔|简短|簡短|清晰|规范|規範|统一|統一|详细|詳細|用中文|用英文|写中文|寫中文|写英文|寫英文)|(?:注释|註釋)(?:都|一律)?(?:用|使用)(?:中文|英文)|(?:^|[^我])每次[^，。,]{0,20}?都(?:要|必须|必須|得|先)|(?:先|一定要)(?:问|問|确认|確認|征求)(?:一下)?我|前(?:先)?(?:给我|給我|让我|讓我)(?:看|确认|確認)?(?:一下)?(?:方案|计划|計劃|步骤|步驟)|^(?:请|請)(?:始终|始終|总是|總是|永远|永遠)|(?:所有|全部|每个|每個|一切)(?:的)?[^，。]{1,20}?都(?:要|必须|必須|得|不要|不能|别|別)|(?:统一|統一)(?:用|使用|采用|採用|改用|写|寫|放)|^(?:以后|以後)[，,]?\s*[^再可会會的有吧还還就怎]|(?:所有|全部)(?:的)?[^，。]{1,20}?都(?:要|必须|必須|得)?(?:用|使用|采用|採用|写成|寫成|放在|放到)|千万别|千萬別|千万不能|千萬不能|绝对不能|絕對不能|一定不要|永远别|永遠別|^不是.{1,40}?[，,]\s*而是|以后都|以後都|以后请|以後請|今后|今後都|从现在开始|從現在開始|从今以后|從今以後|务必|務必|一律|永远不要|永遠不要|绝对不要|絕對不要|千万不要|千萬不要|(?:记|記|保存|存|写|寫|加)(?:到|进|進|入)(?:你的)?(?:记忆|記憶)(?:里|裡|中)?\s*[:：]\s*\S`)
	jaMidCue  = lazyre.New(`今後は|これからは|以後は|必ず|常に|絶対に|忘れないで|覚えておいて|毎回|勝手に|まず(?:私|僕|俺)に(?:聞|確認|相談)|(?:コミットメッセージ|コメント)は(?:日本語|英語)で`)
	jaRequest = lazyre.New(`(?:ください|して|しないで|ないで|ように|こと|にして|お願いします|お願い)[。！!]?$`)
	kana      = lazyre.New(`[\p{Hiragana}\p{Katakana}]`)
)

// zhSoftCue is "as far as possible, don't" (尽量不要 …), anywhere in a sentence: a constraint on
// how the work is done, not a task.
var zhSoftCue = lazyre.New(`尽量不要|儘量不要|尽量别|儘量別|尽量避免|儘量避免|尽可能不要|盡可能不要`)

// Korean and Turkish put the verb last and the topic first too: "커밋 전에 항상 make lint를
// 실행해", "commit etmeden önce her zaman make lint çalıştır". A Korean cue inside a sentence
// counts only before a request's ending (…해, …해 주세요, …하지 마); a Turkish one only in a
// sentence of Turkish words, as a word of its own.
var (
	hangul    = lazyre.New(`\p{Hangul}`)
	koMidCue  = lazyre.New(`항상|반드시|무조건|절대로|절대|앞으로는|앞으로도|이제부터는|지금부터는`)
	koRequest = lazyre.New(`(?:해|해줘|해 줘|해요|주세요|줘|하세요|세요|십시오|하자|할 것|마|마요|마세요|말아|말아줘|말아 주세요|말 것|써|돌려|사용해)[.!。]?$`)
	trMidCue  = lazyre.New(`(?i)(?:^|[^\p{L}])(her zaman|hiçbir zaman|hiç bir zaman|asla|daima|bundan sonra|bundan böyle|varsayılan olarak|kesinlikle yasak|yasaktır|yasaklanmıştır)(?:[^\p{L}]|$)`)
	trWords   = lazyre.New(`(?i)(?:^|[^\p{L}])(?:ve|bir|bu|için|ile|önce|sonra|lütfen|değil|gibi|şu|her|hiç)(?:[^\p{L}]|$)|[ğışİı]`)
)

// turkishText reports whether s reads as Turkish: its letters (ğ, ı, ş, İ) or its function words.
func turkishText(s string) bool { return trWords.MatchString(s) }

// describes reports whether a rule's cue in Russian, Ukrainian, Turkish or Korean opens a
// description instead of an instruction: "всегда падает" (always fails), "никогда не работало"
// (never worked), "her zaman başarısız oluyor", "항상 실패합니다". Those languages tell the two
// apart by the verb's ending: an imperative (запускай, не пушь, çalıştır, kullanmayın, 실행해)
// against a present or past of the third person.
func describes(lang, cue, rest string) bool {
	if alwaysNeverCues[cue] {
		// "sempre" is Portuguese's and Italian's, "jamais" French's and Portuguese's: any of
		// the languages' states counts.
		r := strings.ToLower(strings.TrimLeft(rest, " ,"))
		for _, re := range stateAfterAlways {
			if re.MatchString(r) {
				return true // "Siempre falla el test", "Immer noch der gleiche Fehler", "Altijd crasht de app"
			}
		}
	}
	switch lang {
	case "ru", "uk":
		for _, w := range strings.Fields(strings.ToLower(rest)) {
			w = strings.Trim(w, ".,!:;«»\"'()")
			if w == "не" || w == "ні" || w == "" {
				continue
			}
			if lang == "uk" {
				return ukrainianStatement.MatchString(w)
			}
			return slavicStatement.MatchString(w)
		}
	case "vi":
		// "Không được rồi", "Không được, vẫn lỗi": it did not work; "không được" forbids only a
		// thing done. "Nhớ quá": I miss it. "Luôn bị lỗi": it always fails.
		words := strings.Fields(strings.ToLower(rest))
		first := ""
		if len(words) > 0 {
			first = strings.Trim(words[0], ".,!")
		}
		switch cue {
		case "không được", "khong duoc":
			return len(words) < 2 || viNotDone[first] || failing.MatchString(rest)
		case "nhớ":
			return len(words) < 2 || viNotDone[first]
		case "luôn", "luôn luôn", "luon", "luon luon":
			return viStates[first] || failing.MatchString(strings.Join(words[:min(2, len(words))], " "))
		}
	case "zh":
		// "今后可能会迁移到 Go": a guess about later; "一律按照你的建议来": yes to the agent.
		// "默认阈值统一（上述阈值作为起点）": the thresholds above, of the conversation.
		return zhGuess.MatchString(rest) || zhAgree.MatchString(rest) || zhOfTheMoment.MatchString(rest)
	case "ja":
		// "いつもエラーになります": always, said of what happens; the rule asks.
		return (cue == "いつも" || cue == "常に" || cue == "必ず" || cue == "絶対に" || cue == "決して") && !jaRequest.MatchString(strings.TrimRight(rest, " "))
	case "es", "pt", "it", "de", "nl":
		// "Siempre falla el build": always, said of what fails.
		return failsFirst(rest)
	case "tr":
		words := strings.Fields(strings.ToLower(rest))
		return len(words) > 0 && turkishStatement.MatchString(strings.Trim(words[len(words)-1], ".,!:;"))
	case "fr":
		// "toujours" is "still" as well as "always": "Toujours rien", "toujours pas", "toujours
		// la même erreur", "toujours carte vide" tell a state; "toujours lancer les tests" asks.
		if cue == "toujours" {
			words := strings.Fields(strings.ToLower(rest))
			return len(words) == 0 || !frenchInfinitive.MatchString(strings.Trim(words[0], ".,!:;")) && frenchStill.MatchString(rest) || failsFirst(rest)
		}
		return failsFirst(rest)
	case "ko":
		if strings.HasPrefix(cue, "기억") || strings.HasPrefix(cue, "잊지") || strings.HasPrefix(cue, "중요") || strings.HasPrefix(cue, "말 안") || strings.HasPrefix(cue, "깜빡") {
			return false // the cue is itself the request: remember, don't forget
		}
		return !koRequest.MatchString(strings.TrimRight(rest, " "))
	}
	return false
}

// alwaysNeverCues are the cues that say always, never or still: after them a verb of what happens
// ("falla", "stürzt ab", "crasht"), a copula or "the same" tells a state, not a rule. In these
// languages the imperative is often the third person's form ("usa" uses, use), so it is the
// verb's meaning that tells them: failing, working, giving, appearing, being.
var alwaysNeverCues = map[string]bool{
	"siempre": true, "nunca": true, "jamás": true, "sempre": true, "jamais": true, "mai": true,
	"immer": true, "nie": true, "niemals": true, "altijd": true, "nooit": true, "toujours": true,
}

// stateAfterAlways is, per language, how what follows always / never / still opens when it tells
// what happens: "siempre falla", "nunca funciona", "sempre dá erro", "sempre lo stesso errore",
// "immer noch", "immer wieder stürzt …", "altijd crasht", "toujours planté".
var stateAfterAlways = map[string]*lazyre.Regexp{
	"es": lazyre.New(`^(?:falla|fallan|falló|fallaba|da error|dan error|daba error|se rompe|se cae|se cuelga|crashea|tarda|tardan|funciona|funcionan|funcionó|devuelve|devuelven|sale|salen|aparece|aparecen|pasa|ocurre|es|son|está|están|estaba|el mismo|la misma|lo mismo|igual)(?:[^\p{L}]|$)`),
	"pt": lazyre.New(`^(?:falha|falham|falhou|dá erro|deu erro|quebra|quebrou|trava|travou|demora|funciona|funcionou|retorna|aparece|acontece|é|são|está|estão|o mesmo|a mesma|igual)(?:[^\p{L}]|$)`),
	"it": lazyre.New(`^(?:fallisce|falliscono|dà errore|da errore|si rompe|crasha|si blocca|si pianta|funziona|funzionano|restituisce|appare|compare|succede|è|sono|lo stesso|la stessa|uguale)(?:[^\p{L}]|$)`),
	"de": lazyre.New(`^(?:noch|wieder|schlägt|scheitert|stürzt|crasht|hängt|funktioniert|geht|gibt|kommt|bricht|ist|sind|war|das gleiche|der gleiche|die gleiche|derselbe|dieselbe|dasselbe|gleich)(?:[^\p{L}]|$)`),
	"nl": lazyre.New(`^(?:nog|weer|faalt|crasht|hangt|werkt|gaat|geeft|komt|breekt|is|zijn|was|hetzelfde|dezelfde)(?:[^\p{L}]|$)`),
	"fr": lazyre.New(`^(?:échoue|échouent|plante|plantent|crashe|bloque|marche|fonctionne|renvoie|affiche|apparaît|arrive|est|sont|était)(?:[^\p{L}]|$)`),
}

var (
	// frenchInfinitive is a French verb's infinitive, how a rule after "toujours" goes on:
	// lancer, utiliser, écrire, mettre, prévoir.
	frenchInfinitive = lazyre.New(`^\p{L}{2,}(?:er|ir|re|oir)$`)
	// frenchStill is what "toujours" as "still" goes on to: nothing, not, the same, an empty or
	// broken thing, an error.
	frenchStill = lazyre.New(`(?i)^(?:rien|pas|plus|aucun|aucune|personne|le même|la même|les mêmes|même|pareil|identique|en cours|bloqué|bloquée)\b|(?:^|\s)(?:rien|vide|vides|bloqué|bloquée|bloqués|erreur|erreurs|problème|problèmes|bug|bugs|cassé|cassée|planté|blanc|blanche|noir|noire|pas)(?:[^\p{L}]|$)`)
	// viNotDone are what follows "không được" (not allowed / no good) or "nhớ" (remember / miss)
	// when nothing is forbidden or to be remembered: "không được rồi", "nhớ quá".
	viNotDone = wordSet("rồi à đâu ạ nhé sao hả vẫn nữa mà quá lắm ghê chưa không")
	// viStates are what follows "luôn" when it says how things are: "luôn bị lỗi", "luôn là".
	viStates = wordSet("bị là có thế vậy được tiện")
	// zhDirects are the words with which a rule for later tells the agent what to do: you, please, first,
	// all, must, never, every time, automatically; or later's all of a kind ("以后所有的 skill 保存在…").
	zhDirects = lazyre.New(`你|您|请|請|都|先|必须|必須|一律|不要|别|別|不许|不許|禁止|记得|記得|每次|总是|總是|统一|統一|务必|務必|一定|自动|自動|只用|只能|不能|要用|改用|^(?:以后|以後)(?:的)?(?:所有|全部)`)
	// zhIntends is the person saying what they will try to do themselves ("我尽量", "我会"), or
	// what would follow ("会导致").
	zhIntends = lazyre.New(`我(?:尽量|盡量|会|會|可以|想|打算|自己)|会导致|會導致`)
	// zhOfTheMoment leans on the conversation or the moment: just now, the above, as follows.
	zhOfTheMoment = lazyre.New(`刚才|剛才|刚刚|剛剛|上述|上面的|以上|前面的|如下`)
	// zhGuess is a guess or a plan about later, after 今后 / 以后: "可能会", "会", "再".
	zhGuess = lazyre.New(`^(?:可能|会|會|再|也许|也許|或许|或許|大概|打算|应该会|應該會|估计|估計)`)
	// zhMaybe is what may be: "以后所有版本可能会不一样" guesses, it rules nothing.
	zhMaybe = lazyre.New(`可能|也许|也許|或许|或許|大概|估计|估計|说不定|說不定`)
	// zhAgree is saying yes to the agent: "按照你的建议", "听你的".
	zhAgree = lazyre.New(`(?:按照|按|照|听|聽)你(?:的|说|說)`)
	// cjkQuestion is a Chinese question typed without its mark: "代码在 src/ 目录下面吗".
	cjkQuestion = lazyre.New(`[吗嗎呢么麼]\s*[。.!！]?$`)

	// slavicStatement is a verb of the third person or the past: падает, работает, ломается,
	// работало, падали, запускается; ends no imperative (запускай, используй, пиши, пушь).
	slavicStatement = lazyre.New(`(?:ет|ёт|ит|ют|ят|ут|ат|ется|ится|ются|ятся|ал|ала|ало|али|ил|ила|ило|или|ел|ела|ело|ели|ул|ула|уло|ули|ался|алось)$`)
	// ukrainianStatement is the same in Ukrainian, whose third person ends as a Russian
	// infinitive does (робить, падає, працює, ламається).
	ukrainianStatement = lazyre.New(`(?:ить|ать|ає|ує|є|ється|ються|ять|ють|ав|ала|ало|али|ив|ила|ило|или|ілось|алось)$`)
	// turkishStatement is a Turkish verb of the moment or the past: oluyor, çalışıyor, bozuldu,
	// çalışmadı, olmuş.
	turkishStatement = lazyre.New(`(?:ıyor|iyor|uyor|üyor|yor|yordu|dı|di|du|dü|tı|ti|tu|tü|mış|miş|muş|müş)$`)
)

// midCue finds a cue of midCues in s.
func midCue(s string) (lang, cue string, ok bool) {
	if kana.MatchString(s) {
		if c := jaMidCue.FindString(s); c != "" && jaRequest.MatchString(s) {
			return "ja", c, true
		}
		return "", "", false
	}
	if hangul.MatchString(s) {
		if c := koMidCue.FindString(s); c != "" && koRequest.MatchString(s) {
			return "ko", c, true
		}
		return "", "", false
	}
	if turkishText(s) {
		if m := trMidCue.FindStringSubmatch(s); m != nil {
			return "tr", strings.ToLower(m[1]), true
		}
		return "", "", false
	}
	if m := viMidCue.FindStringSubmatch(s); m != nil && !isQuestion(s) && !viNotMust.MatchString(strings.TrimSpace(m[0])) {
		return "vi", strings.ToLower(m[1] + m[2]), true
	}
	if c := zhSoftCue.FindString(s); c != "" {
		return "zh", c, true
	}
	if zhSaveFlag.MatchString(s) {
		return "zh", zhSaveCue, true
	}
	if c := zhMidCue.FindString(s); c != "" && !zhDoubtsOrSupposes(cueClause(s, c)) {
		// "以后想做时随时可以调用记忆" (later I can call on memory): what may happen later; a rule
		// for later tells the agent what to do, or says every time.
		if (strings.HasPrefix(c, "以后") || strings.HasPrefix(c, "以後")) && (!zhDirects.MatchString(s) || zhIntends.MatchString(s) || zhMaybe.MatchString(s)) {
			return "", "", false
		}
		// "千万别忘了保存": don't forget to save, the step at hand; what is not to be forgotten
		// must say more, as English's "don't forget to …" must (three words at least).
		if after := s[strings.Index(s, c)+len(c):]; strings.HasPrefix(after, "忘") && utf8.RuneCountInString(strings.TrimRight(strings.TrimLeft(after, "忘了记記掉"), "。！!. ")) < 5 {
			return "", "", false
		}
		if (strings.HasPrefix(c, "所有") || strings.HasPrefix(c, "全部") || strings.HasPrefix(c, "每")) && (zhTask.MatchString(s) || strings.HasSuffix(strings.TrimRight(s, "。！!. "), "了")) {
			return "", "", false // "把所有的文件都要改一下": the edit at hand
		}
		before := s[:strings.Index(s, c)]
		if strings.HasSuffix(strings.TrimRight(before, "跟对對给給和 "), "不是") {
			return "", "", false // "不是跟对每个客户的回复都要…": not every reply must, a rule denied
		}
		if quoted(before) {
			return "", "", false // "只规定“必须做什么”和“绝对不能做什么”": the words named, not said
		}
		if (strings.HasPrefix(c, "所有") || strings.HasPrefix(c, "全部") || strings.HasPrefix(c, "每")) && zhWish.MatchString(s) {
			return "", "", false // "我就是要把所有障碍都要排除": what the person will do, or a cry
		}
		return "zh", c, true
	}
	return "", "", false
}

// viMidCue is a Vietnamese rule whose cue is inside it, as Chinese puts 每次 and 所有…都 there:
// "Mỗi lần sửa xong phải chạy test" (every time), "Tất cả các hàm đều phải có type hint" (all),
// "Sau này mọi thay đổi đều phải tạo PR" (from now on, every), "nguyên tắc … thì phải hỏi tôi"
// (a principle, without a colon), "Mình muốn bạn luôn trả lời ngắn gọn" (I want you always to);
// each must say must, always or never ("đều không được" is "all fail", "làm luôn" "do it now").
var viMidCue = lazyre.New(`(?i)(?:^|\s)(mỗi lần|moi lan|tất cả|tat ca|mọi|sau này|sau nay|về sau|ve sau|nguyên tắc|nguyen tac|quy tắc|quy tac)(?:\s[^,.;:!?]{0,60}?)?\s(?:đều\s+)?(?:phải|không bao giờ|đừng|luôn luôn)(?:\s|$)|(?:^|\s)(muốn bạn|muon ban)\s+(?:luôn|phải)\s`)

// viNotMust is "không phải" (is not, rather than), no must: "…chứ ko phải trung tâm của dự án".
var viNotMust = lazyre.New(`(?i)(?:^|\s)(?:không|ko|k|chứ|chẳng|đâu)\s+phải$`)

// zhDoubt is the person wondering, not ruling: "我不知道是否每次都要存…，还是说只加上…".
var zhDoubt = lazyre.New(`是否|是不是|还是说|還是說|不知道要不要`)

// zhIf is a condition: "如果每次更新都要读完整记录，那…" supposes, it rules nothing (a
// condition in a clause of its own before the rule, "如果你不清楚，先问我", is the rule's).
var zhIf = lazyre.New(`如果|要是|假如|假设|假設`)

// zhDoubtsOrSupposes reports whether a clause wonders or supposes.
func zhDoubtsOrSupposes(clause string) bool {
	return zhDoubt.MatchString(clause) || zhIf.MatchString(clause)
}

// cueClause is the clause of s that holds the cue c.
func cueClause(s, c string) string {
	for _, part := range clauseSplit.Split(s, -1) {
		if strings.Contains(part, c) {
			return part
		}
	}
	return s // the cue spans a clause's end
}

// zhWish is the person's own resolve or a cry, not a rule for the agent: "我就是要把…", "我的核心需求
// 就是…", a sentence that ends in 啊 or 呀.
var zhWish = lazyre.New(`我(?:就是)?要把|我的(?:核心)?需求|不然|否则|否則|[啊呀][。！!.\s]*$`)

// quoted reports whether the text before a cue leaves a quotation open: the cue is in the quote.
func quoted(before string) bool {
	open := strings.Count(before, "“") + strings.Count(before, "「") + strings.Count(before, "『")
	closed := strings.Count(before, "”") + strings.Count(before, "」") + strings.Count(before, "』")
	return open > closed || strings.Count(before, `"`)%2 == 1
}

// memoryCue is a cue asking the agent to keep something in its memory.
var memoryCue = lazyre.New(`记忆|記憶|geheugen|memoria|mémoire|mémorise|memória|memorize|memoriza|bộ nhớ|bo nho|メモリ`)

// endsInColon reports whether a sentence only introduces what follows it.
func endsInColon(s string) bool {
	s = strings.TrimSpace(s)
	return strings.HasSuffix(s, ":") || strings.HasSuffix(s, "：")
}

// splitLang cuts a line into sentences, each with its closing mark.
func splitLang(line string) []string {
	var out []string
	last := 0
	for _, loc := range langSentence.FindAllStringIndex(line, -1) {
		out = append(out, line[last:loc[1]])
		last = loc[1]
	}
	if last < len(line) {
		out = append(out, line[last:])
	}
	return out
}

// openingCue finds the cue s opens with, the longest of any language's, and what follows it.
func openingCue(s string) (lang, cue string, strength cueStrength, rest string, ok bool) {
	lower := strings.ToLower(s)
	best := 0
	for _, l := range languageCues {
		for st, list := range l.cues {
			for _, c := range list {
				if len(c) <= best || !strings.HasPrefix(lower, c) {
					continue
				}
				after := lower[len(c):]
				if !l.cjk && !strings.HasSuffix(c, ",") && !strings.HasSuffix(c, ".") && !strings.HasSuffix(c, ":") && after != "" && !startsWithBoundary(after) &&
					(l.lang != "tr" || !turkishEnding.MatchString(after)) {
					continue
				}
				lang, cue, strength, best, ok = l.lang, c, st, len(c), true
			}
		}
	}
	if ok {
		rest = strings.TrimLeft(s[best:], " ,，、:：")
	}
	return lang, cue, strength, rest, ok
}

// turkishEnding is an ending Turkish adds to a cue's verb: the polite imperative (unutmayın,
// hatırlayın, kullanın, tutun) and the second person's must (kullanmalısın).
var turkishEnding = lazyre.New(`^(?:yın|yin|yun|yün|ın|in|un|ün|yınız|yiniz|ınız|iniz|unuz|malısın|malısınız|malısınız)(?:[^\p{L}]|$)`)

func startsWithBoundary(s string) bool {
	for _, r := range s {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}
	return true
}

// englishWords tell an English sentence, left to the English rules: "no, …" is a cue of several
// languages.
var englishWords = lazyre.New(`(?i)\b(?:the|an|is|are|of|and|for|with|this|that|it|we|you|don't|please|instead)\b`)

// sharedWords are English's words that are the language's own too: Dutch "we" and "is", German "an".
var sharedWords = map[string]map[string]bool{"nl": {"we": true, "is": true}, "de": {"an": true}}

// englishSentence reports whether two different English words that are not also lang's tell text
// to be English.
func englishSentence(lang, text string) bool {
	seen := map[string]bool{}
	for _, w := range englishWords.FindAllString(text, -1) {
		if w = strings.ToLower(w); !sharedWords[lang][w] {
			seen[w] = true
		}
	}
	return len(seen) >= 2
}

// languageLessons makes lessons of the rules a user turn states in other languages.
func languageLessons(text string, s *extract.Session) []*lesson {
	var out []*lesson
	for _, r := range otherLanguageRules(text) {
		if !isCJK(r.lang) && englishSentence(r.lang, r.text) {
			continue
		}
		if memoryCue.MatchString(r.cue) {
			// "把这个记到你的记忆里：测试用 make test 跑": what to keep follows the colon; its "this"
			// points on to it, not back.
			if i := strings.IndexAny(r.text, ":："); i >= 0 && hasLetters(r.text[i:]) {
				_, size := utf8.DecodeRuneInString(r.text[i:])
				r.text = upperFirst(strings.TrimSpace(r.text[i+size:]))
			}
		}
		if leansBack(r.text) || pointsBackWithPronoun(r.text, r.cue) || r.cue == zhSaveCue && !hasLetters(savedRule(r.text)) {
			continue
		}
		rule := strings.TrimRight(r.text, " ")
		if r.cue == zhSaveCue && !strings.Contains(r.text, "全局") {
			// "写入AGENTS.md:"中文对话…⏎不要创建新文件…"": the project file's rules are what it
			// quotes, every line of it, the asking left out ("全局" stays: it says where they hold)
			rule = quotedRules(savedRule(r.text), text)
		}
		n := &lesson{typ: memory.Feedback, label: r.cue + " …", rule: rule, sentence: rule, core: rule, session: s, lang: r.lang}
		n.facts = factsOf(rule)
		out = append(out, n)
	}
	return out
}

// zhSaveFlag is the person asking for what they say to be written into the agent's standing
// instructions, AGENTS.md or CLAUDE.md or "the global" ones: "帮我写进codex的agentmd全局，就是一切操作…都不要用git".
var zhSaveFlag = lazyre.New(`(?i)` + zhWriteInto + `[^，。,]{0,12}?(?:agents?\s*\.?\s*md|claude\s*\.?\s*md|gemini\s*\.?\s*md|全局)(?:的那个设置|的設置|的设置)?(?:里面|裡面|里|裡|中)?`)

// zhWriteInto is "write it into", as a Chinese request to keep a rule somewhere says it.
const zhWriteInto = `(?:写进|寫進|写入|寫入|写到|寫到|加到|加进|加進|添加到)`

// zhSaveCue is the cue of a rule of zhSaveFlag.
const zhSaveCue = "写进全局"

// savedRule is what a sentence of zhSaveFlag asks to be written, without the asking: "" when
// the sentence only asks ("帮我写进codex的全局", "帮我写进电脑codex的全局，不是项目的全局").
func savedRule(text string) string {
	loc := zhSaveFlag.FindStringIndex(text)
	if loc == nil {
		return ""
	}
	rest := strings.TrimLeft(text[loc[1]:], "，,：: ")
	rest = strings.TrimPrefix(strings.TrimPrefix(rest, "就是"), "即")
	if strings.Contains(rest, "全局") && utf8.RuneCountInString(rest) < 12 {
		return "" // "不是项目的全局": where to write it, not what
	}
	return strings.TrimRight(rest, "。.!！ ")
}

// quotedRules is the rules a request to save them quotes: first, its start, and when the quote
// it opens closes on a later line of text, those lines too, joined as sentences.
func quotedRules(first, text string) string {
	quote, size := utf8.DecodeRuneInString(first)
	if !strings.ContainsRune("\"“「", quote) {
		return first
	}
	rules := []string{strings.TrimSpace(first[size:])}
	if !strings.ContainsAny(first[size:], "\"”」") {
		if i := strings.Index(text, first[size:]); i >= 0 {
			rest := text[i+len(first[size:]):]
			for line := range strings.Lines(rest) {
				line = strings.TrimSpace(line)
				end := strings.IndexAny(line, "\"”」")
				if end >= 0 {
					line = line[:end]
				}
				if line != "" {
					rules = append(rules, line)
				}
				if end >= 0 {
					break
				}
			}
		}
	}
	for i, r := range rules {
		rules[i] = strings.TrimRight(strings.Trim(r, "\"“”「」 "), "。.!！")
	}
	return strings.Join(rules, "。")
}

// correctedClause reports whether a clause of what follows a correction's opening states what
// holds by a cue of its own: a rule's opening or its request ("不要写单独的 CSS": after a
// correction a request stands), a cue inside it ("统一用"), or one of the language's words for
// always and never anywhere in it ("voor state management gebruiken we altijd Zustand", "quản lý
// state luôn dùng Zustand"), unless it describes ("altijd faalt").
func correctedClause(lang, rest string) (cue string, ok bool) {
	for _, clause := range clauseSplit.Split(rest, -1) {
		clause = strings.TrimSpace(clause)
		if failureWords.MatchString(clause) {
			continue // "hij faalt altijd op CI", "luôn bị lỗi trên CI": what happens
		}
		if _, c, st, r, ok := openingCue(clause); ok && st != correctingCue && hasLetters(r) {
			return c, true
		}
		for _, find := range []func(string) (string, string, bool){orderedCue, switchCue, midCue} {
			if _, c, ok := find(clause); ok {
				return c, true
			}
		}
		for _, l := range languageCues {
			if l.lang != lang || l.cjk {
				continue
			}
			for _, c := range l.cues[standingCue] {
				if !alwaysNeverCues[c] && !viAlwaysNever[c] {
					continue
				}
				if i := indexWord(clause, c); i >= 0 && !describes(lang, c, clause[i+len(c):]) {
					return c, true
				}
			}
		}
	}
	return "", false
}

// failureWords tell a clause that says what goes wrong, in the languages whose always and never
// a corrected clause reads.
var failureWords = lazyre.New(`(?i)\b(?:faal\w*|crash\w*|kapot|werkt\s+niet|fout\w*|fehl\w*|schlägt|stürzt|funktioniert\s+nicht|kaputt|falsch|échou\w*|plant\w*|marche\s+pas|fall\w*|error\w*|erro|falh\w*|quebr\w*|lỗi|hỏng|không\s+chạy|loi|hong)\b`)

// viAlwaysNever are Vietnamese's always and never, read inside a corrected clause as
// alwaysNeverCues are in the other languages.
var viAlwaysNever = map[string]bool{"luôn": true, "luôn luôn": true, "không bao giờ": true, "luon": true}

// clauseSplit cuts a sentence at its commas and semicolons.
var clauseSplit = lazyre.New(`[,;，；、]\s*`)

// pointing is a demonstrative before a noun ("esta asignatura", "cette page", "dieses Fach",
// "这门课", "эта функция", "bu fonksiyon"; after it in Indonesian: "fungsi ini"; Polish's "ten"
// is left out, being Spanish's "ten en cuenta"): a rule about a thing named earlier in the
// conversation, which says nothing on its own in a later session. The project itself ("este
// proyecto", "ce dépôt") is no such thing, nor the moment ("с этого момента": from now on).
var (
	pointing = lazyre.New(`(?i)(?:^|[\s(])(?:este|esta|estos|estas|ese|esa|esos|esas|dicho|dicha|dichos|dichas|neste|nesta|nestes|nestas|nesse|nessa|nesses|nessas|deste|desta|desse|dessa|naquele|naquela|ce|cet|cette|ces|esse|essa|esses|essas|dieser|diese|dieses|diesem|diesen|deze|dit|aquel|aquella|` +
		`этот|эта|эти|этого|этой|этих|этом|эту|цей|ця|ці|цього|цієї|цих|questo|questa|questi|queste|quel|quella|quei|tego|tej|tych|tento|tato|toto|tyto|tohle|tenhle|tuhle|bu|şu|이|그)\s+(\p{L}+)|` +
		`(?:这个|這個|这门|這門|这些|這些|该|該|この|その)(\p{L}+)|` +
		// Indonesian, Malay and Vietnamese put the demonstrative after the noun: "fungsi ini",
		// "halaman itu", "hàm này", "phần đó".
		`(?:^|[\s(])(\p{L}+)\s+(?:ini|itu|này|đó|kia)(?:[^\p{L}]|$)`)
	projectNouns = lazyre.New(`(?i)^(?:proyecto|repositorio|repo|código|codigo|projet|dépôt|depot|code|projeto|repositório|projekt|repository|project|项目|項目|仓库|倉庫|代码|代碼|プロジェクト|リポジトリ|` +
		`án|dự án|nay|sau|momento|` + // "dự án này" (this project), "từ nay" (from now on), "sau này" (later), "neste momento"
		`момент|раз|проект|репозитори|репо|код|проєкт|progett|codice|repozytori|kod|kód|repozitář|proje|depo|proyek|repositori|kode|프로젝트|저장소|코드)`)
)

// leansBack reports whether a rule points at something named before it rather than naming it.
func leansBack(rule string) bool {
	for _, m := range pointing.FindAllStringSubmatch(rule, -1) {
		noun := m[1] + m[2] + m[3]
		if !projectNouns.MatchString(noun) {
			return true
		}
	}
	return false
}

// backPronoun is a pronoun that stands for a thing said before: "ça", "cela", "eso", "esto",
// "isso", "isto", "ciò". After the rule's first words ("Dorénavant tu peux indiquer ça dans le
// fichier projet notes": write that down) it is a rule about that thing; as the rule's subject
// right after the cue ("Dorénavant, ça passe par pnpm") it is the rule's own.
var backPronoun = lazyre.New(`(?i)\p{L}\s+(?:ça|cela|ceci|eso|esto|aquello|isso|isto|aquilo|ciò)(?:[^\p{L}]|$)`)

// pointsBackWithPronoun reports whether a rule, past its cue, names what it is about with a
// pronoun that stands for something said before.
func pointsBackWithPronoun(rule, cue string) bool {
	rest := rule
	if len(rest) >= len(cue) && strings.EqualFold(rest[:len(cue)], cue) {
		rest = rest[len(cue):]
	}
	return backPronoun.MatchString(strings.TrimLeft(rest, " ,:"))
}

func isCJK(lang string) bool { return lang == "zh" || lang == "ja" }

// unreadScripts are scripts the offline consolidator has no rules for: a turn mostly in one is
// counted, and the summary says a session's language was skipped.
var unreadScripts = []struct {
	name  string
	table *unicode.RangeTable
}{
	{"Cyrillic", unicode.Cyrillic}, {"Arabic", unicode.Arabic}, {"Hebrew", unicode.Hebrew},
	{"Thai", unicode.Thai}, {"Devanagari", unicode.Devanagari}, {"Greek", unicode.Greek},
}

// unreadScript names the script most of text's letters are written in when it is one the
// consolidator has no rules for, "" otherwise.
func unreadScript(text string) string {
	counts := make([]int, len(unreadScripts))
	letters := 0
	for _, r := range text {
		if !unicode.IsLetter(r) {
			continue
		}
		letters++
		for i, sc := range unreadScripts {
			if unicode.Is(sc.table, r) {
				counts[i]++
				break
			}
		}
	}
	for i, c := range counts {
		if letters >= 10 && c*2 > letters {
			if unreadScripts[i].name == "Cyrillic" && readCyrillic(text) {
				return ""
			}
			return unreadScripts[i].name
		}
	}
	return ""
}

// bulgarianWords are Bulgarian's own function words; Bulgarian has no letter Russian lacks
// but writes ъ as a vowel.
var bulgarianWords = wordSet("ще този тази това тези във със съм към моля нещо също")

// readCyrillic reports whether a Cyrillic text is Russian or Ukrainian, the Cyrillic languages
// the rules read: not when it has letters of Serbian, Macedonian or Kazakh (ј, љ, ћ, ә, қ …), nor
// Bulgarian's words or vowel ъ without Russian's ы, э, ё or Ukrainian's і, ї, є.
func readCyrillic(text string) bool {
	lower := strings.ToLower(text)
	if strings.ContainsAny(lower, "јљњћђџѓќѕәғқңөұүһ") {
		return false
	}
	if strings.ContainsAny(lower, "ыэёіїєґ") {
		return true
	}
	if strings.Contains(lower, "ъ") {
		return false
	}
	for _, w := range strings.FieldsFunc(lower, func(r rune) bool { return !unicode.IsLetter(r) }) {
		if bulgarianWords[w] {
			return false
		}
	}
	return true
}

// latinLanguages are languages written in the Latin script told by letters of their own, named
// when no rule reads them ("" when one does: Czech, Polish, Turkish); a turn is theirs when
// several of its words have them and few are the function words of the languages the rules read.
var latinLanguages = []struct{ name, letters string }{
	{"", "řěů"}, {"Slovak", "ľĺŕôäďť"}, {"", "łąęśźżćń"}, {"Hungarian", "őű"}, {"Azerbaijani", "ə"},
	{"", "ğış"}, {"Romanian", "ățș"}, {"Danish or Norwegian", "øæ"}, {"Swedish or Finnish", "å"},
	{"Icelandic", "þð"}, {"Croatian or Serbian", "đ"}, {"Latvian or Lithuanian", "ėąųūīāēļķņ"},
	{"a Slavic language", "šžč"},
}

// vietnameseLetter is a letter only Vietnamese writes: ơ, ư and the vowels with a tone mark
// (ạ, ả, ấ … ỹ), which the rules read.
func vietnameseLetter(r rune) bool {
	return r >= 0x1EA0 && r <= 0x1EF9 || r == 'ơ' || r == 'ư' || r == 'Ơ' || r == 'Ư'
}

// readWords are function words of the languages the rules read (English and languageCues').
var readWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields("the a an is are of and to in for with that this it you we i not do be on at " +
		"el la los las de que y en un una por con para es no se lo " +
		"le les des et est pas pour dans une du au ce qui " +
		"der die das und ist nicht ein eine zu mit den von auf ich " +
		"het een en is niet van op te dat je ik wij " +
		"o os um uma não com por para que do da em " +
		"và là của không có cho được trong này với " +
		"il di che e non per un una con è del della sono lo gli " +
		"i w nie na się z że do to jest jak ale " +
		"a v se je s ale jsem aby " +
		"ve bir bu için ile da de çok ne gibi " +
		"yang dan di ini itu untuk dengan tidak ada ke dari saya akan bisa") {
		readWords[w] = true
	}
}

// unreadLatin names the Latin-script language most of text is in when it is one no rule reads,
// "" otherwise.
func unreadLatin(text string) string {
	words := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) })
	if len(words) < 12 {
		return ""
	}
	read, vietnamese := 0, 0
	counts := make([]int, len(latinLanguages))
	for _, w := range words {
		if readWords[w] {
			read++
		}
		if strings.ContainsFunc(w, vietnameseLetter) {
			vietnamese++
		}
		for i, l := range latinLanguages {
			if strings.ContainsAny(w, l.letters) {
				counts[i]++
				break
			}
		}
	}
	if read*8 > len(words) || vietnamese >= 3 {
		return "" // Vietnamese shares ô and đ with Slovak and Croatian; its tones are its own
	}
	best, total := 0, 0
	for i, c := range counts {
		total += c
		if c > counts[best] {
			best = i
		}
	}
	if total < 3 {
		return unmarkedLanguage(words)
	}
	if latinLanguages[best].name == "a Slavic language" && counts[0] > 0 {
		best = 0 // š, ž and č are Czech's too; ř, ě and ů only Czech's
	} else if latinLanguages[best].name == "a Slavic language" && counts[1] > 0 {
		best = 1 // and Slovak's, whose ľ, ô and ä are its own
	}
	return latinLanguages[best].name // "" for Czech, Polish and Turkish, which the rules read
}

// unmarkedLanguages are Latin-script languages no rule reads whose words carry no marks, told
// by their commonest function words: without them they would pass for English.
var unmarkedLanguages = []struct {
	name  string
	words map[string]bool
}{
	{"Swahili", wordSet("na ya wa kwa ni katika hii hiyo kama za la lakini sana hapa hakuna nini")},
	{"Tagalog", wordSet("ang ng mga sa na ay ko mo ito hindi po namin natin lang ba yung")},
	{"Somali", wordSet("iyo oo ka ku waa ayaa aan la u in si waxaa")},
	{"Hausa", wordSet("da na ta ba ne ce wannan yana kuma akwai")},
}

// unmarkedLanguage names the unmarked language a text without the read languages' function
// words is in: one whose function words, three different ones at least, are a sixth of its words. A text of neither
// (a URL, a log line, code) is nobody's language.
func unmarkedLanguage(words []string) string {
	best, bestN, bestKinds := "", 0, 0
	for _, l := range unmarkedLanguages {
		n, kinds := 0, map[string]bool{}
		for _, w := range words {
			if l.words[w] {
				n++
				kinds[w] = true
			}
		}
		if n > bestN {
			best, bestN, bestKinds = l.name, n, len(kinds)
		}
	}
	// three different words at least: "3u3u3u9u…" is not Somali
	if bestKinds >= 3 && bestN*6 >= len(words) {
		return best
	}
	return ""
}

// upperFirst makes a rule cut out of a correction ("no uses Chart.js") open a sentence.
func upperFirst(s string) string {
	for i, r := range s {
		return string(unicode.ToUpper(r)) + s[i+len(string(r)):]
	}
	return s
}

// The languages whose order puts a standing rule's adverb after the verb: "Gebruik altijd
// TypeScript", "Benutze immer pnpm", "Utilise toujours pnpm", "Usa siempre pnpm", "Use sempre
// pnpm", "Usa sempre pnpm"; or, in Dutch and German, the verb last, as an infinitive that asks:
// "console.log nooit gebruiken", "nie direkt auf main pushen". A verb of the third person opens
// no rule ("De test faalt altijd", "Le test échoue toujours"): only the imperatives below do.
var verbFirst = []struct {
	lang         string
	verbs, advs  string
	re           *lazyre.Regexp
	infinitives  string // the verb-last shape's verbs, "" for a language without it
	infAdvs      string // the adverbs before them: not "standaard", an adjective too ("een standaard template gebruiken")
	infinitiveRe *lazyre.Regexp
}{
	{lang: "nl", verbs: "gebruik|draai|run|schrijf|zet|voer|maak|houd|hou|laat|doe|installeer|start|controleer|check|lees|pas|voeg|formatteer|bouw|test|commit|push|werk|geef|noem|plaats|stop|vraag",
		advs: "altijd|nooit|voortaan|vanaf nu|standaard", infAdvs: "altijd|nooit|voortaan",
		infinitives: "gebruiken|draaien|runnen|pushen|committen|aanpassen|wijzigen|veranderen|aanraken|schrijven|toevoegen|installeren|zetten|doen|uitvoeren|starten|testen|verwijderen|maken|bouwen|deployen|mergen|importeren|hardcoden|vergeten"},
	{lang: "de", verbs: "benutze|benutz|verwende|nutze|nutz|schreibe|schreib|führe|lass|lasse|mach|mache|setze|setz|starte|teste|committe|pushe|installiere|prüfe|halte|halt|nimm|füge|baue|formatiere|lege|leg|gib|nenne|frag|frage",
		advs: "immer|nie|niemals|stets|grundsätzlich|künftig|ab jetzt|ab sofort|von nun an|standardmäßig", infAdvs: "immer|nie|niemals|künftig",
		infinitives: "verwenden|benutzen|nutzen|pushen|committen|ändern|anfassen|schreiben|hinzufügen|installieren|ausführen|laufen lassen|machen|löschen|starten|testen|einsetzen|mergen|importieren|deployen|vergessen"},
	{lang: "fr", verbs: "utilise|utilisez|lance|lancez|écris|écrivez|mets|mettez|fais|faites|garde|gardez|exécute|exécutez|teste|testez|vérifie|vérifiez|ajoute|ajoutez|passe|passez|travaille|travaillez|demande|demandez|réponds|répondez|commence|commencez",
		advs: "toujours|jamais|systématiquement|désormais|dorénavant|à partir de maintenant|par défaut"},
	{lang: "es", verbs: "usa|usen|use|utiliza|utilicen|ejecuta|ejecuten|corre|corran|escribe|escriban|pon|pongan|haz|hagan|mantén|deja|dejen|prueba|revisa|añade|agrega|responde|pregunta|trabaja|empieza",
		advs: "siempre|nunca|a partir de ahora|de ahora en adelante|por defecto"},
	{lang: "pt", verbs: "use|usa|utilize|utiliza|rode|roda|execute|executa|escreva|escreve|coloque|coloca|faça|faz|mantenha|mantém|deixe|deixa|teste|testa|verifique|verifica|adicione|adiciona|responda|responde|pergunte|pergunta|trabalhe|comece",
		advs: "sempre|nunca|a partir de agora|daqui pra frente|daqui para frente|por padrão"},
	{lang: "it", verbs: "usa|usate|utilizza|esegui|eseguite|lancia|scrivi|scrivete|metti|mettete|fai|fate|tieni|lascia|prova|controlla|aggiungi|rispondi|chiedi|lavora|inizia",
		advs: "sempre|mai|d'ora in poi|da ora in poi|da adesso in poi|di default"},
}

// weAlways is "we always / never …" in the person's own words, the verb between: "We gebruiken
// altijd pnpm", "Wir pushen nie direkt auf main", "On utilise toujours pnpm", "Usamos siempre
// pnpm", "Chúng tôi luôn dùng pnpm"; English's "we always" (forms.go) in each language's order.
var weAlways = []struct {
	lang string
	re   *lazyre.Regexp
}{
	{"nl", lazyre.New(`(?i)^(?:we|wij)\s+(\p{L}+)\s+(altijd|nooit|voortaan)(?:[^\p{L}]|$)`)},
	{"de", lazyre.New(`(?i)^wir\s+(\p{L}+)\s+(immer|nie|niemals|künftig|ab jetzt)(?:[^\p{L}]|$)`)},
	// "On utilise toujours X" is "we still use X" as often: French says always only with never.
	{"fr", lazyre.New(`(?i)^(?:on|nous)\s+(?:n'|ne\s+)?(\p{L}+)\s+(jamais|désormais)(?:[^\p{L}]|$)`)},
	{"es", lazyre.New(`(?i)^(\p{L}+mos)\s+(siempre|nunca)(?:[^\p{L}]|$)`)},
	{"pt", lazyre.New(`(?i)^(\p{L}+mos)\s+(sempre|nunca)(?:[^\p{L}]|$)`)},
	{"it", lazyre.New(`(?i)^(\p{L}+iamo)\s+(sempre|mai)(?:[^\p{L}]|$)`)},
	{"vi", lazyre.New(`(?i)^(chúng tôi|chúng ta|chúng mình|mình|bọn mình|team mình|tụi mình)\s+(luôn luôn|luôn|không bao giờ)(?:[^\p{L}]|$)`)},
}

// stateVerbs are verbs of having and being: "we hebben altijd problemen", "wir sind immer
// zu spät", "estamos siempre esperando" say how things go, not how the work is done.
var stateVerbs = wordSet("hebben zijn waren hadden worden krijgen zitten moeten haben sind waren hatten werden bekommen müssen avons sommes étions avions avons sommes tenemos estamos somos teníamos estábamos temos estamos somos tínhamos estávamos abbiamo siamo eravamo avevamo")

// reportWords say a sentence reports what happens rather than asks: in Spanish, Portuguese and
// Italian an imperative is also the third person ("usa siempre el puerto 3000 aunque …": it
// always uses port 3000 though …).
var reportWords = lazyre.New(`(?i)(?:^|[^\p{L}])(?:aunque|pero|cuando|todavía|sigue|ainda|mas|quando|continua|anche se|ma|ancora|mismo|misma|mesmo|mesma|stesso|stessa|por error|sin querer|sem querer|per errore)(?:[^\p{L}]|$)`)

// relativeBefore is a relative clause between the verb and the adverb: "Gebruik de test die
// altijd faalt" is about the test that always fails.
var relativeBefore = lazyre.New(`(?i)\s(?:die|dat|welke|wat|waar|der|das|welche|was|wo|wenn|als|omdat|weil)\s`)

// neverFr is French "ne … jamais" around an imperative: "Ne pousse jamais sur main"; not a
// verb that says how things go, the subject dropped as people type ("ne marche jamais").
var (
	neverFr  = lazyre.New(`(?i)^(?:ne\s+|n')(\p{L}+)\s+(?:(?:plus|pas)\s+)?jamais(?:[^\p{L}]|$)`)
	frStates = wordSet("marche marchent fonctionne fonctionnent compile compilent démarre charge plante répond passe arrive est sont a ont va vont sait peut veut fait")
)

// stillNot is French "toujours pas" (still not) and German "immer noch" (still): not always.
var stillNot = lazyre.New(`(?i)toujours pas|toujours le même|toujours la même|immer noch|immer wieder`)

// fillers are words that name nothing after a rule's adverb: "Mach immer weiter so", "fais
// toujours ça".
var fillers = wordSet("weiter so das es dat het dit zo door verder mehr meer ça cela ceci comme eso esto así lo isso isto assim questo così lo la le les el los las de der die den een a o um una un une il")

// says reports whether what follows a rule's adverb names anything: a word that is no filler.
func says(rest string) bool {
	for _, w := range strings.FieldsFunc(strings.ToLower(rest), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '.' && r != '/' }) {
		if w = strings.Trim(w, "."); w != "" && !fillers[w] {
			return true
		}
	}
	return false
}

// notAPerson is how a Dutch or German sentence opens when a person or a thing is its subject:
// what follows is said of them ("Ik wil nooit meer wachten", "Es stürzt immer ab"), no request.
var notAPerson = lazyre.New(`(?i)^(?:ik|we|wij|je|jij|u|hij|zij|ze|het|er|dat|dit|die|de|ich|wir|du|sie|er|es|man|das|der|dies|dann|toen|waarom|warum|wieso)(?:[^\p{L}]|$)`)

func init() {
	for i := range verbFirst {
		v := &verbFirst[i]
		between := ""
		if v.infinitives != "" {
			// Dutch and German put the object before the adverb: "Schrijf commitberichten altijd
			// in het Engels", "Schreib Commit-Nachrichten immer auf Englisch".
			between = `(?:\s+[^\s,.;:!?]+){0,3}?`
		}
		v.re = lazyre.New(`(?i)^(?:` + v.verbs + `)(?:\s+(?:je|u|du|ihr|bitte|alsjeblieft|svp|por favor|per favore))?` + between + `\s+(` + v.advs + `)(?:[^\p{L}]|$)`)
		if v.infinitives != "" {
			v.infinitiveRe = lazyre.New(`(?i)(?:^|[^\p{L}])(` + v.infAdvs + `)\s+(?:\S+\s+){0,6}?(?:` + v.infinitives + `)(?:[^\p{L}]|$)`)
		}
	}
}

// hereWords say a rule is about the place at hand: "gebruik hier altijd een Map", "usa aquí
// siempre …", "这里统一用 …": the edit of the moment, not the project's rule.
var hereWords = lazyre.New(`(?i)(?:^|[^\p{L}])(?:hier|hierin|hiervoor|daar|ici|là|aquí|acá|ahí|aqui|aí|qua|dort|ở đây|chỗ này|đoạn này)(?:[^\p{L}]|$)|这里|這裡|此处|此處|这儿|ここ`)

// purposeClause is the infinitive of a purpose ("om altijd … te gebruiken", "um immer … zu
// verwenden"), no request.
var purposeClause = lazyre.New(`(?i)(?:^|\s)(?:om|um)\s|\s(?:te|zu)\s+\p{L}+[.!]?$`)

// orderedCue finds a standing rule said in the verb-first or verb-last order of verbFirst.
func orderedCue(s string) (lang, cue string, ok bool) {
	if hereWords.MatchString(s) {
		return "", "", false
	}
	for _, v := range verbFirst {
		if m := v.re.FindStringSubmatch(s); m != nil {
			if !says(s[len(m[0]):]) || stillNot.MatchString(s) || relativeBefore.MatchString(m[0]) || (v.lang == "es" || v.lang == "pt" || v.lang == "it") && (failing.MatchString(s) || reportWords.MatchString(s)) {
				return "", "", false
			}
			return v.lang, strings.ToLower(m[1]), true
		}
	}
	if m := neverFr.FindStringSubmatch(s); m != nil && !frStates[strings.ToLower(m[1])] && !failing.MatchString(s) && says(s[len(m[0]):]) {
		return "fr", "jamais", true
	}
	for _, w := range weAlways {
		if m := w.re.FindStringSubmatch(s); m != nil && !stateVerbs[strings.ToLower(m[1])] && !failing.MatchString(s) && !reportWords.MatchString(s) && says(s[len(m[0]):]) {
			return w.lang, strings.ToLower(m[2]), true
		}
	}
	if notAPerson.MatchString(s) || purposeClause.MatchString(s) {
		return "", "", false
	}
	for _, v := range verbFirst {
		if v.infinitiveRe == nil {
			continue
		}
		if m := v.infinitiveRe.FindStringSubmatch(s); m != nil {
			return v.lang, strings.ToLower(m[1]), true
		}
	}
	return "", "", false
}

// switches are how a request says it stands because it ends a habit: "geen moment.js meer",
// "kein axios mehr", "n'utilise plus axios", "ya no uses axios", "não use mais axios", "别用 axios
// 了", "不要再用 moment", "đừng dùng axios nữa", "もう axios は使わないで"; or sets one up:
// "dùng dayjs thay vì moment", "gebruik dayjs in plaats van moment", "统一用 fetch". Each must
// name what it switches (a Latin name: a package, a tool, a file), so that "别改了" (stop
// changing it) is no rule.
var switches = []struct {
	lang string
	re   *lazyre.Regexp
}{
	{"nl", lazyre.New(`(?i)^(?:gebruik|installeer|importeer)\s+(?:geen|niet)\s+\S.{0,40}?\s+meer(?:[^\p{L}]|$)|^(?:niet|geen)\s+meer\s+\S.{0,40}?\s(?:gebruiken|installeren|importeren)(?:[^\p{L}]|$)|^(?:gebruik|neem)\s+\S.{0,40}?\s+in plaats van\s+\S`)},
	{"de", lazyre.New(`(?i)^(?:benutze|benutz|verwende|nutze|nutz|installiere|importiere)\s+(?:kein|keine|keinen|nicht)\s+\S.{0,40}?\s+mehr(?:[^\p{L}]|$)|^(?:nicht|kein|keine|keinen)\s+(?:\S+\s+)?mehr\s+\S.{0,40}?\s(?:verwenden|benutzen|nutzen|installieren)(?:[^\p{L}]|$)|^(?:benutze|benutz|verwende|nutze|nutz|nimm)\s+\S.{0,40}?\s+(?:statt|anstatt|anstelle von)\s+\S`)},
	{"fr", lazyre.New(`(?i)^(?:n'utilise|n'utilisez|n'installe|n'installez|n'importe|n'importez)\s+plus\s+\S|^(?:utilise|utilisez)\s+\S.{0,40}?\s+(?:au lieu de|au lieu d'|plutôt que)\s*\S`)},
	{"es", lazyre.New(`(?i)^ya no (?:uses|utilices|usen|utilicen|instales|importes)\s+\S|^no (?:uses|utilices|usen|utilicen) más\s+\S|^(?:usa|utiliza|usen|utilicen)\s+\S.{0,40}?\s+(?:en vez de|en lugar de)\s+\S`)},
	{"pt", lazyre.New(`(?i)^não (?:use|usa|utilize|usem|instale|importe) mais\s+\S|^(?:use|usa|utilize|usem)\s+\S.{0,40}?\s+(?:em vez de|ao invés de|no lugar de)\s+\S`)},
	{"vi", lazyre.New(`(?i)^(?:đừng|không|dung|khong)\s+(?:dùng|sử dụng|xài)\s+\S.{0,40}?\s+nữa(?:[^\p{L}]|$)|^(?:hãy\s+)?(?:dùng|sử dụng|xài)\s+\S.{0,40}?\s+(?:thay vì|thay cho)\s+\S|^(?:đừng|không)\s+(?:dùng|sử dụng|xài)\s+(?:thư viện\s+|lib\s+|gói\s+)?[A-Za-z][\w.@/-]*\s*,\s*(?:hãy\s+)?(?:dùng|sử dụng|xài|chuyển sang)\s+[A-Za-z]`)},
	{"zh", lazyre.New(`^(?:不要|别|別|不用)再(?:用|使用|装|裝|引入)|^(?:不要|别|別)(?:用|使用)\s*[A-Za-z][^，。,]{0,30}?了|(?:^|[，,]\s*)(?:统一|統一)(?:用|使用|采用|採用|改用|改成|写成|寫成)|^(?:用|改用)\s*[A-Za-z]\S*\s*(?:代替|替代|替换|替換|取代)`)},
	{"ja", lazyre.New(`^もう.{1,30}?(?:使わないで|使用しないで|使わない)`)},
	// and the other read languages, where the same shape is a word or two: "больше не используй",
	// "non usare più", "nie używaj już", "už nepoužívej", "jangan pakai … lagi", "이제 … 쓰지 마",
	// "artık … kullanma"
	{"ru", lazyre.New(`(?i)^больше не (?:используй|используйте|ставь|добавляй|подключай)\s+\S|^не (?:используй|используйте) больше\s+\S|^(?:используй|используйте)\s+\S.{0,40}?\s+вместо\s+\S`)},
	{"uk", lazyre.New(`(?i)^більше не (?:використовуй|використовуйте)\s+\S|^(?:використовуй|використовуйте)\s+\S.{0,40}?\s+замість\s+\S`)},
	{"it", lazyre.New(`(?i)^non (?:usare|utilizzare|installare|importare) più\s+\S|^(?:usa|utilizza)\s+\S.{0,40}?\s+(?:invece di|al posto di)\s+\S`)},
	{"pl", lazyre.New(`(?i)^nie (?:używaj|używajcie) już\s+\S|^już nie używaj\s+\S|^(?:używaj|użyj)\s+\S.{0,40}?\s+zamiast\s+\S`)},
	{"cs", lazyre.New(`(?i)^už nepoužívej(?:te)?\s+\S|^nepoužívej(?:te)? už\s+\S|^(?:používej|použij)\s+\S.{0,40}?\s+místo\s+\S`)},
	{"id", lazyre.New(`(?i)^jangan (?:pakai|gunakan|menggunakan)\s+\S.{0,40}?\s+lagi(?:[^\p{L}]|$)|^(?:pakai|gunakan)\s+\S.{0,40}?\s+(?:sebagai ganti|alih-alih|daripada)\s+\S`)},
	{"ko", lazyre.New(`^(?:이제|더 이상|이제부터)\s*.{1,40}?(?:쓰지 마|사용하지 마)`)},
	{"tr", lazyre.New(`(?i)^artık\s+.{1,40}?\s(?:kullanma|kullanmayın|kullanmayin)(?:[^\p{L}]|$)`)},
}

// moreThan is a limit, not a switch: "no uses más de 3 colores", "gebruik niet meer dan 3
// kolommen", "n'utilise plus de 3 couleurs".
var moreThan = lazyre.New(`(?i)(?:más|mais|plus|meer|mehr|più)\s+(?:de|d'|dan|als|di)\s`)

// cannotUse is Vietnamese "can no longer use": "không dùng được nữa" says what broke.
var cannotUse = lazyre.New(`(?i)(?:dùng|sử dụng|xài)\s+được`)

// switchCue finds a switch of switches in s.
func switchCue(s string) (lang, cue string, ok bool) {
	if hereWords.MatchString(s) || moreThan.MatchString(s) || cannotUse.MatchString(s) {
		return "", "", false
	}
	for _, w := range switches {
		if m := w.re.FindString(s); m != "" {
			if !latinName.MatchString(s) {
				return "", "", false
			}
			return w.lang, strings.TrimSpace(strings.TrimLeft(m, "，, ")), true
		}
	}
	return "", "", false
}

// failsFirst reports whether what follows a rule's cue opens by saying something fails:
// "Siempre falla el build", "Jamais échoué".
func failsFirst(rest string) bool {
	words := strings.Fields(rest)
	return failing.MatchString(strings.Join(words[:min(2, len(words))], " "))
}

// asksCJK reports whether a sentence is a question in Chinese or Japanese: by its mark, or, in
// Chinese, by its closing particle.
func asksCJK(s string) bool {
	return strings.HasSuffix(s, "？") || cjkQuestion.MatchString(s) && strings.ContainsFunc(s, isHan)
}
