package offline

import (
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/dreamd/dreamd/internal/extract"
	"github.com/dreamd/dreamd/internal/memory"
	"github.com/dreamd/dreamd/internal/transcript"
)

// The language a person writes to the agent in is a fact of theirs that no sentence states: a
// person who writes every request in Chinese rarely says "answer in Chinese" (replylang.go reads
// it when they do), yet the next session should know. It is what most of their messages are
// written in, told by the script or, in the Latin script, by the function words of the languages
// the rules read; a language other than English, in enough messages to tell, is remembered, and
// when the agent's answers were in it too, that they are answered in it.

// Enough messages to tell a person's language, and the share of those not in English that must
// be in it.
const (
	minWrittenMessages = 2
	writtenShare       = 0.8
)

// writtenLanguageLesson is the language most of the person's messages are in when it is not
// English, as a lesson of theirs: four in five of those in other languages than English, and more
// than those in English; nil when too few messages tell, when they are mixed, or when the
// person asked to be answered in a language (their words say more).
func writtenLanguageLesson(messages []personMessage) *lesson {
	counts := map[string]int{}
	var told []personMessage
	for _, m := range messages {
		if m.session.Source == rememberSource || len(m.text) >= pastedLength {
			continue // a queued note, a pasted document: not how the person writes to the agent
		}
		if lang := messageLanguage(m.text); lang != "" {
			counts[lang]++
			told = append(told, m)
		}
		if n, _, _ := replyLanguageLesson(m.text, m.session); n != nil && n.typ == memory.User {
			return nil
		}
	}
	// English among another language's messages is often pasted, an error or a log line read as
	// prose ("bad request. this host is not allowed …" between Korean requests): the language
	// need only outnumber it.
	english := counts["en"]
	delete(counts, "en")
	lang, n := mostOf(counts)
	if lang == "" || n < minWrittenMessages || n <= english || float64(n) < writtenShare*float64(len(told)-english) {
		return nil
	}
	name := languageNames[lang]
	if lang == "zh" && traditional(told) {
		name = "Traditional Chinese"
	}
	var in []personMessage
	var sessions []*extract.Session // in the order read, oldest first
	answered := map[string]int{}
	for _, m := range told {
		if messageLanguage(m.text) == lang {
			in = append(in, m)
		}
		if !slices.Contains(sessions, m.session) {
			sessions = append(sessions, m.session)
			answered[messageLanguage(agentProse(m.session))]++
		}
	}
	// In this project: a person may write one project's sessions in their language and another's,
	// an open one, in English; the user's store would hold both.
	rule := "In this project the person writes to the agent in " + name
	if reply, k := mostOf(answered); reply == lang && k*2 > len(sessions) {
		rule += "; answer them in " + name
	}
	first, last := in[0], in[len(in)-1]
	basis := fmt.Sprintf("the language of %d of the %d messages of theirs whose language shows, ", n, len(told))
	if len(sessions) == 1 {
		basis += "in " + sessionOn(last.session)
	} else {
		basis += fmt.Sprintf("in %d sessions, from their %s message of %s to their %s message of %s",
			len(sessions), ordinal(first.message), sessionOn(first.session), ordinal(last.message), sessionOn(last.session))
	}
	l := &lesson{typ: memory.User, label: "wrote in " + name, rule: rule, sentence: rule, core: "The person writes in " + name,
		session: last.session, message: last.message, basis: basis}
	l.also = otherSessions(told, last.session)
	l.facts = factsOf(rule)
	return l
}

// traditionalHan and simplifiedHan are the two forms of characters requests use often, pair by
// pair: a person in Taiwan or Hong Kong writes the first, and wants to be answered in it.
const (
	traditionalHan = "這個們會來說時為對還點開發問題與過實現應當經將變圖樣從資數據檔體讓頁給麼沒關動錯專設計處碼轉單寫讀檢測試執啟無務網頭內間選項號邊種類組庫線產學業報總機連結構參導調義則筆錄歷剛幫請謝嗎區戶帳價錢買賣員團隊態標確認證驗環離聯絡歡見觀視覽顯畫擊鍵輸車軟雜斷續壓縮傳遞載儲刪預話語譯聽響紀級極較舊藝術鐘決夠麗壞規雙層屬獨狀況擇圓齊濾亂盡氣電腦腳"
	simplifiedHan  = "这个们会来说时为对还点开发问题与过实现应当经将变图样从资数据档体让页给么没关动错专设计处码转单写读检测试执启无务网头内间选项号边种类组库线产学业报总机连结构参导调义则笔录历刚帮请谢吗区户帐价钱买卖员团队态标确认证验环离联络欢见观视览显画击键输车软杂断续压缩传递载储删预话语译听响纪级极较旧艺术钟决够丽坏规双层属独状况择圆齐滤乱尽气电脑脚"
)

// hanForm is the form each character of traditionalHan and simplifiedHan is written in.
var hanForm = func() map[rune]bool {
	traditional := map[rune]bool{}
	for _, r := range traditionalHan {
		traditional[r] = true
	}
	for _, r := range simplifiedHan {
		traditional[r] = false
	}
	return traditional
}()

// traditional reports whether the person's Chinese is written in traditional characters: enough
// of them, and several times the simplified ones (a pasted name or quote may be either).
func traditional(messages []personMessage) bool {
	trad, simp := 0, 0
	for _, m := range messages {
		for _, r := range m.text {
			switch t, ok := hanForm[r]; {
			case ok && t:
				trad++
			case ok:
				simp++
			}
		}
	}
	return trad >= 3 && trad > 3*simp
}

// mostOf is the key with the highest count, the first in order on a tie; "" for none.
func mostOf(counts map[string]int) (string, int) {
	best, n := "", 0
	for k, c := range counts {
		if c > n || c == n && k < best {
			best, n = k, c
		}
	}
	return best, n
}

// agentProse is what the agent answered in a session, its replies' text, for the language it
// answered in.
func agentProse(s *extract.Session) string {
	var b strings.Builder
	for _, t := range s.Turns {
		if t.Role == transcript.Assistant {
			b.WriteString(t.Text)
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// languageNames are the English names of the languages messageLanguage tells.
var languageNames = map[string]string{
	"zh": "Chinese", "ja": "Japanese", "ko": "Korean", "ru": "Russian", "uk": "Ukrainian",
	"el": "Greek", "he": "Hebrew", "th": "Thai", "vi": "Vietnamese", "en": "English",
	"es": "Spanish", "pt": "Portuguese", "fr": "French", "de": "German", "nl": "Dutch",
	"it": "Italian", "id": "Indonesian", "ms": "Malay", "tr": "Turkish", "pl": "Polish", "cs": "Czech",
}

// functionWords are, per language written in the Latin script, words every sentence of it is
// made of and that code and the names of things rarely are, and the words of greeting, thanks
// and the files and folders work is about. A word in several lists counts for
// each a share (latinLanguage). Vietnamese is listed as it is typed without its marks; with them
// its letters tell it.
var functionWords = map[string]map[string]bool{
	"en": wordSet("the and is are to of in it this that you we i not do does can please with for what should be have don't it's my our on but if so when why how there all just now also then was were will would could an"),
	"es": wordSet("el la los las que de y en un una por con para es se lo del al como pero más mas esto este esta está hay tiene tienes hacer haz puedes quiero necesito también cuando donde porque muy todo ya sí mi tu le su sin ahora ahí aquí eso esa ese esas esos otra otro otras otros te me hola gracias vale archivo carpeta código botón"),
	"pt": wordSet("o os as que de e em um uma por com para é não se do da dos das no na nos nas como mas isso isto esse essa está tem fazer faça você voce vc quero preciso também quando onde porque muito tudo já meu minha ao pra seu sua agora aqui olá oi obrigado arquivo pasta botão"),
	"fr": wordSet("le la les de des et est un une du au aux ce cette qui que pas pour dans sur avec je tu il nous vous ne mais ou où fait faire fais peux peut veux aussi quand comme très tout tous c'est j'ai mon ma mes ton ta ça bonjour merci fichier dossier maintenant alors encore ici oui moi toi plus faut dois doit sont être avant après vas parfait ajoute vérifie regarde lance relance supprime modifie crée"),
	"de": wordSet("der die das und ist nicht ein eine zu mit den dem von auf ich du wir es sie bitte auch aber oder wenn dass noch schon kannst mach mache für wie was sind hat haben kein keine jetzt alle diese dieser im ob soll sollen werden wird muss hallo danke datei ordner"),
	"nl": wordSet("de het een en is niet van op te dat je ik wij we voor met maar ook als wat kan moet deze dit die zijn er naar wel nog bij om hoe graag even alle kun hoi bedankt bestand"),
	"it": wordSet("il lo la gli le di che e è non per un una con del della sono mi ti ci questo questa anche ma come fai puoi voglio perché quando dove molto tutto già nel nella al alla ciao grazie cartella"),
	"id": wordSet("yang dan di ini itu untuk dengan tidak ada ke dari saya akan bisa tolong juga sudah belum apa kalau jika karena tapi aku kamu buat buatkan harus sama lagi gimana bagaimana mau pakai jadi semua halo terima kasih"),
	"tr": wordSet("ve bir bu için ile çok ne gibi şu mi mı değil var yok ama daha sonra nasıl neden lütfen şimdi tüm her olarak olan yap merhaba dosya"),
	"pl": wordSet("i w nie na się z że jest jak ale czy co tak już mnie proszę żeby jeśli tylko dla ten"),
	"cs": wordSet("v se je s ale jsem aby na že jak co tak už prosím pro jen když ten"),
	"vi": wordSet("khong duoc minh toi cua giup nhung nhu roi voi chua dang nhe vay sao lai cung phai nay mot cac cho va la thi khi lam nao gi ban chay loi"),
}

// ownLetters are, per language, letters no other language of functionWords writes: a word with
// one counts for it as a function word does ("pojďme podle zadání" is Czech by its ď, ř, ě).
var ownLetters = map[string]string{"cs": "řěůďť", "pl": "łąęśźżćń", "tr": "ğışİ", "pt": "ãõ", "es": "ñ", "de": "ß"}

// elisions are the words a language writes joined to the next by an apostrophe ("j'aimerais",
// "qu'il", "l'app"): a token opening with one counts for the languages that elide it.
var elisions = map[string][]string{"j'": {"fr"}, "qu'": {"fr"}, "n'": {"fr"}, "c'": {"fr"}, "s'": {"fr"},
	"m'": {"fr"}, "t'": {"fr"}, "d'": {"fr"}, "l'": {"fr", "it"}, "dell'": {"it"}, "nell'": {"it"}, "all'": {"it"}, "un'": {"it"}}

// malayWords tell Malay from Indonesian, which share most function words.
var malayWords = wordSet("boleh nak tak sahaja hendak sila awak kita")

// messageLanguage is the language most of a message's prose is in, an ISO 639-1 code; "" when
// its prose says too little to tell (a command, "ok", a path) or is in a script it does not
// tell.
func messageLanguage(text string) string {
	prose := strings.Join(proseLines(text), "\n")
	var latin, cjk, han, kana, hangul, cyrillic int
	others := map[string]int{}
	for _, r := range prose {
		switch {
		case !unicode.IsLetter(r):
		case unicode.Is(unicode.Han, r):
			han++
			cjk++
		case unicode.In(r, unicode.Hiragana, unicode.Katakana):
			kana++
			cjk++
		case unicode.Is(unicode.Hangul, r):
			hangul++
			cjk++
		case unicode.Is(unicode.Cyrillic, r):
			cyrillic++
		case unicode.Is(unicode.Latin, r):
			latin++
		case unicode.Is(unicode.Greek, r):
			others["el"]++
		case unicode.Is(unicode.Hebrew, r):
			others["he"]++
		case unicode.Is(unicode.Thai, r):
			others["th"]++
		}
	}
	// A CJK character carries a word or a syllable: a few of them among identifiers say more than
	// the identifiers' letters.
	if cjk >= 4 && cjk*4 >= latin {
		switch {
		case hangul*2 > cjk:
			return "ko"
		case kana*10 >= cjk:
			return "ja"
		case han > 0:
			return "zh"
		}
		return ""
	}
	if cyrillic >= 5 && cyrillic*2 > latin {
		if !readCyrillic(prose) {
			return ""
		}
		if strings.ContainsAny(strings.ToLower(prose), "іїєґ") {
			return "uk"
		}
		return "ru"
	}
	for lang, n := range others {
		if n >= 10 && n*2 > latin {
			return lang
		}
	}
	return latinLanguage(prose)
}

// latinLanguage tells a Latin-script text's language by its function words, each word counting
// for every language it is one of a share, and by its own letters; the best language must score half as much again as the next.
func latinLanguage(prose string) string {
	scores := map[string]float64{}
	words := strings.FieldsFunc(strings.ToLower(prose), func(r rune) bool { return !unicode.IsLetter(r) && r != '\'' })
	marked := 0
	for _, w := range words {
		if strings.ContainsFunc(w, vietnameseLetter) {
			marked++
		}
		var in []string
		for lang, set := range functionWords {
			if set[w] {
				in = append(in, lang)
			}
		}
		if len(in) == 0 {
			if i := strings.IndexByte(w, '\''); i > 0 && i < len(w)-1 {
				in = elisions[w[:i+1]]
			}
		}
		for _, lang := range in {
			scores[lang] += 1 / float64(len(in))
		}
		for lang, letters := range ownLetters {
			if strings.ContainsAny(w, letters) {
				scores[lang]++
			}
		}
	}
	if marked >= 2 {
		return "vi"
	}
	best, second := "", 0.0
	for lang, s := range scores {
		if s > scores[best] || s == scores[best] && lang < best {
			best = lang
		}
	}
	for lang, s := range scores {
		if lang != best && s > second {
			second = s
		}
	}
	if best == "" || scores[best] < 2 || scores[best] < 1.5*second {
		return ""
	}
	if best == "id" {
		for _, w := range words {
			if malayWords[w] {
				return "ms"
			}
		}
	}
	return best
}
