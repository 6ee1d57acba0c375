package offline

import (
	"strings"

	"github.com/dreamd/dreamd/internal/lazyre"
)

// Some rules carry no cue of time ("always", "from now on") and are standing by what they cover:
// every time the agent does a kind of thing ("à chaque fois que tu fais une modification, mets le
// manuel à jour"), everything of a kind ("todas las rutas de la API deben requerir
// autenticación"), or anything done without the person's consent ("Без моего подтверждения ты
// не удаляешь файлы"). Each shape below is one of those, in the languages the rules read.

// scopedShape is one way of saying a rule by its scope, in one language.
type scopedShape struct {
	lang, cue string
	re        *lazyre.Regexp
	// clause marks a shape that is a clause of its own ("every time you …,"): what follows it must
	// be the instruction, not what happens ("à chaque fois que tu lances le serveur, ça plante").
	clause bool
	// kind marks a shape of "all … must": its subject must be a kind of thing the work makes, or
	// what the agent will make ("todas las apis que hagas"), so that "toutes les tables doivent
	// être visibles" (the page asked for) is not taken for a rule.
	kind bool
}

var scopedShapes = []scopedShape{
	// Every time you …, … — the clause names the agent ("tu", "you", a Spanish subjunctive of the
	// second person), so that the person's own "cada vez que ejecuto npm test falla" reports a bug.
	{lang: "fr", cue: "à chaque fois que tu", clause: true, re: re(`^(?:[àa]\s+)?chaque\s+fois\s+qu(?:e\s+|')(?:tu|vous)\s+[^,]{3,100}?,\s*`)},
	{lang: "es", cue: "cada vez que", clause: true, re: re(`^cada\s+vez\s+que\s+(?:tú\s+|tu\s+|usted\s+)?\p{L}+(?:as|es)\b[^,]{0,100}?,\s*`)},
	{lang: "pt", cue: "toda vez que", clause: true, re: re(`^(?:toda|cada)\s+vez\s+que\s+(?:(?:você|voce|vc|tu)\s+\p{L}+|\p{L}+r)\b[^,]{0,100}?,\s*`)},
	{lang: "de", cue: "jedes Mal, wenn du", clause: true, re: lazyre.New(`^(?i:jedes\s*mal|immer),?\s+(?i:wenn|sobald)\s+(?:(?i:du|ihr)|Sie)\s+[^,]{3,100}?,\s*`)},
	{lang: "nl", cue: "elke keer als je", clause: true, re: re(`^(?:elke|iedere)\s+keer\s+(?:als|wanneer|dat)\s+(?:je|jij|u)\s+[^,]{3,100}?,\s*|^telkens\s+(?:als|wanneer)\s+(?:je|jij|u)\s+[^,]{3,100}?,\s*`)},
	{lang: "it", cue: "ogni volta che", clause: true, re: re(`^ogni\s+volta\s+che\s+(?:tu\s+)?\p{L}+i\b[^,]{0,100}?,\s*`)},
	{lang: "ru", cue: "каждый раз, когда ты", clause: true, re: re(`^каждый\s+раз,?\s+когда\s+(?:ты|вы)\s+[^,]{3,100}?,\s*`)},
	// Everything of a kind must …: a plural subject that covers all of it, and a verb of must.
	{lang: "es", cue: "todas … deben", kind: true, re: re(`^(?:todas?|todos?)\s+(?:l[oa]s\s+)?\p{L}[^,.]{1,60}?\s(?:deben|deberían|deberian|debería|deberia|tienen\s+que|han\s+de)\s+\p{L}`)},
	{lang: "pt", cue: "todos … devem", kind: true, re: re(`^(?:todas?|todos?)\s+(?:[oa]s\s+)?\p{L}[^,.]{1,60}?\s(?:devem|deveriam|têm\s+que|tem\s+que|têm\s+de|precisam)\s+\p{L}`)},
	{lang: "fr", cue: "tous … doivent", kind: true, re: re(`^(?:tous|toutes)\s+(?:les|nos|mes)\s+\p{L}[^,.]{1,60}?\s(?:doivent|devraient)\s+\p{L}`)},
	{lang: "de", cue: "alle … müssen", kind: true, re: re(`^alle\s+\p{L}[^,.]{1,60}?\s(?:müssen|sollen|sollten)\s+\p{L}`)},
	{lang: "nl", cue: "alle … moeten", kind: true, re: re(`^alle\s+\p{L}[^,.]{1,60}?\s(?:moeten|zouden\s+moeten)\s+\p{L}`)},
	{lang: "it", cue: "tutti … devono", kind: true, re: re(`^(?:tutti|tutte)\s+(?:i|gli|le)\s+\p{L}[^,.]{1,60}?\s(?:devono|dovrebbero)\s+\p{L}`)},
	{lang: "ru", cue: "все … должны", kind: true, re: re(`^все\s+\p{L}[^,.]{1,60}?\s(?:должны|обязаны)\s+\p{L}`)},
	// What the person means by their words: "quand je te dis de mettre à jour le manuel, je te dis de
	// mettre à jour Manual.jsx", "cuando digo deploy me refiero a …".
	{lang: "fr", cue: "quand je te dis", re: re(`^(?:quand|lorsque)\s+je\s+(?:te\s+|vous\s+)?(?:dis|parle|demande)\s+\S.{2,80}?\s(?:je\s+(?:te\s+|vous\s+)?(?:dis|veux\s+dire|parle|demande)|c'est|ça\s+veut\s+dire)\s+\S`)},
	{lang: "es", cue: "cuando te digo", re: re(`^cuando\s+(?:te\s+|le\s+)?(?:digo|hablo\s+de|pido)\s+\S.{2,80}?\s(?:me\s+refiero\s+a|quiero\s+decir|es|significa|te\s+digo)\s+\S`)},
	{lang: "pt", cue: "quando eu digo", re: re(`^quando\s+(?:eu\s+)?(?:te\s+)?(?:digo|falo|peço)\s+\S.{2,80}?\s(?:me\s+refiro\s+a|quero\s+dizer|é|significa)\s+\S`)},
	{lang: "de", cue: "wenn ich … sage", re: re(`^wenn\s+ich\s+(?:dir\s+)?\S.{2,80}?\s(?:sage|schreibe),?\s+(?:meine\s+ich|ist|heißt\s+das)\s+\S`)},
	{lang: "nl", cue: "als ik … zeg", re: re(`^(?:als|wanneer)\s+ik\s+\S.{2,80}?\s(?:zeg|vraag),?\s+(?:bedoel\s+ik|is\s+dat)\s+\S`)},
	{lang: "ru", cue: "когда я говорю", re: re(`^когда\s+я\s+(?:тебе\s+)?(?:говорю|пишу|прошу)\s+\S.{2,80}?\s(?:я\s+имею\s+в\s+виду|это\s+значит|значит)\s+\S`)},
	// A name that changed: "en Next.js 16 ya no se llama middleware.ts, se llama proxy.ts".
	{lang: "es", cue: "ya no se llama", re: re(`\bya\s+no\s+se\s+llama\s+\S+.{0,30}?\bse\s+llama\s+\S`)},
	{lang: "fr", cue: "ne s'appelle plus", re: re(`\bne\s+s'appellent?\s+plus\s+\S+.{0,30}?\bs'appellent?\s+\S`)},
	{lang: "pt", cue: "não se chama mais", re: re(`\bnão\s+se\s+chama\s+mais\s+\S+.{0,30}?\bse\s+chama\s+\S`)},
	{lang: "de", cue: "heißt nicht mehr", re: re(`\bheißt\s+nicht\s+mehr\s+\S+.{0,30}?\bheißt\s+\S`)},
	{lang: "nl", cue: "heet niet meer", re: re(`\bheet\s+niet\s+meer\s+\S+.{0,30}?\bheet\s+\S`)},
	{lang: "ru", cue: "больше не называется", re: re(`больше\s+не\s+называется\s+\S+.{0,30}?называется\s+\S`)},
	// What the whole project must use or follow, wherever in the sentence: "revisa todo el
	// proyecto debe usar nuqs para …", "整个项目都要用 pnpm".
	{lang: "es", cue: "todo el proyecto debe", re: re(`(?:^|\s)(?:todo\s+el\s+(?:proyecto|código|codigo|sistema|repo|repositorio)|toda\s+la\s+(?:app|aplicación|aplicacion))\s+(?:debe|debería|deberia|tiene\s+que)\s+(?:usar|utilizar|seguir|estar)\s+\S`)},
	{lang: "pt", cue: "todo o projeto deve", re: re(`(?:^|\s)(?:todo\s+o\s+(?:projeto|código|codigo|sistema|repo|repositório)|toda\s+a\s+(?:app|aplicação|aplicacao))\s+(?:deve|deveria|tem\s+que|precisa)\s+(?:usar|utilizar|seguir|estar)\s+\S`)},
	{lang: "fr", cue: "tout le projet doit", re: re(`(?:^|\s)(?:tout\s+le\s+(?:projet|code|dépôt|site)|toute\s+l'(?:app|application))\s+(?:doit|devrait)\s+(?:utiliser|suivre|être)\s+\S`)},
	{lang: "de", cue: "das ganze Projekt soll", re: re(`(?:^|\s)(?:das\s+ganze|das\s+gesamte)\s+(?:projekt|repo|code)\s+(?:soll|muss|sollte)\s+\S`)},
	{lang: "nl", cue: "het hele project moet", re: re(`(?:^|\s)het\s+(?:hele|gehele|volledige)\s+(?:project|repo|code)\s+(?:moet|zou\s+moeten)\s+\S`)},
	{lang: "ru", cue: "весь проект должен", re: re(`(?:^|\s)весь\s+(?:проект|код|репозиторий)\s+(?:должен|обязан)\s+\S`)},
	{lang: "zh", cue: "整个项目", re: lazyre.New(`(?:整个|整個)(?:项目|項目|工程|仓库|倉庫)(?:都|统一|統一)?(?:要|必须|必須|应该|應該)?(?:用|使用|采用|採用|遵循)`)},
	// Not without my consent: what the agent may do only once the person said yes.
	{lang: "es", cue: "sin mi confirmación", re: re(`(?:^|\s)sin\s+mi\s+(?:confirmación|confirmacion|aprobación|aprobacion|permiso|autorización|autorizacion|consentimiento|visto\s+bueno)\b`)},
	{lang: "pt", cue: "sem minha confirmação", re: re(`(?:^|\s)sem\s+(?:a\s+)?minha\s+(?:confirmação|confirmacao|aprovação|aprovacao|permissão|permissao|autorização|autorizacao)\b`)},
	{lang: "fr", cue: "sans ma confirmation", re: re(`(?:^|\s)sans\s+(?:ma|mon)\s+(?:confirmation|validation|permission|autorisation|accord|feu\s+vert)\b`)},
	{lang: "de", cue: "ohne meine Zustimmung", re: re(`(?:^|\s)ohne\s+(?:meine|mein)\s+(?:bestätigung|zustimmung|freigabe|erlaubnis|einverständnis|okay|ok)\b`)},
	{lang: "nl", cue: "zonder mijn toestemming", re: re(`(?:^|\s)zonder\s+(?:mijn)\s+(?:bevestiging|toestemming|goedkeuring|akkoord)\b`)},
	{lang: "it", cue: "senza la mia conferma", re: re(`(?:^|\s)senza\s+(?:la\s+|il\s+)?mi[oa]\s+(?:conferma|approvazione|permesso|autorizzazione|consenso|ok)\b`)},
	{lang: "ru", cue: "без моего подтверждения", re: re(`(?:^|\s)без\s+моего\s+(?:подтверждения|разрешения|согласия|одобрения|ведома)(?:[^\p{L}]|$)`)},
	{lang: "zh", cue: "未经我确认", re: lazyre.New(`(?:未经|未經|没有|沒有|没经过|沒經過)(?:我|我的)(?:的)?(?:确认|確認|同意|允许|允許|批准|许可|許可)`)},
	{lang: "ja", cue: "私の確認なしに", re: lazyre.New(`(?:私|僕|俺)の(?:確認|許可|承認|了承)(?:なしに|なしで|を得ずに|なく)`)},
	{lang: "ko", cue: "내 확인 없이", re: lazyre.New(`(?:내|제|나의|저의)\s*(?:확인|허락|승인|동의)\s*없이`)},
	{lang: "vi", cue: "khi chưa có sự đồng ý của tôi", re: re(`(?:khi\s+)?(?:chưa|không)\s+có\s+(?:sự\s+)?(?:đồng\s+ý|xác\s+nhận|cho\s+phép)\s+(?:của\s+)?(?:tôi|mình)\b`)},
}

// workKinds are the kinds of thing the work makes, in the languages of scopedShapes, and the
// relative clauses that say the agent will make them.
var workKinds = re(`(?:^|[^\p{L}])(?:apis?|rutas|rotas|routes|endpoints?|componentes|composants|komponenten|componenti|funciones|fonctions|funktionen|funções|funcoes|funzioni|functies|métodos|metodos|méthodes|methoden|clases|classes|klassen|archivos|ficheros|fichiers|dateien|arquivos|bestanden|file|commits?|mensajes|messages|nachrichten|mensagens|berichten|consultas|requêtes|queries|abfragen|migraciones|migrations|migrationen|migrações|servicios|services|dienste|serviços|módulos|modulos|modules|module|variables|variablen|variáveis|textos|textes|texte|strings|cadenas|comentarios|commentaires|kommentare|comentários|commentaren|commenti|respuestas|réponses|antworten|respostas|antwoorden|risposte|scripts|pantallas|écrans|telas|seiten|páginas|paginas|pages|pagine|formularios|formulaires|formulare|formulários|formulieren|eventos|événements|events|traducciones|traductions|übersetzungen|traduções|vertalingen|traduzioni|функции|компоненты|файлы|коммиты|запросы|сервисы|модули|эндпоинты|тексты|комментарии|ответы|страницы|скрипты)(?:[^\p{L}]|$)|\bque\s+(?:hagas|crees|escribas|agregues|añadas|tu\s+\p{L}+|vous\s+\p{L}+|você\s+\p{L}+|criar|fizer)\b|\b(?:die|dat)\s+(?:du|je|jij)\b|\bche\s+(?:crei|fai|scrivi|aggiungi)\b|\bкоторые\s+(?:ты|вы)\b`)

// What follows "every time you …," must be the instruction: scopedReport is a subject that
// reports what happens instead; scopedFails a failure, anywhere in a sentence of any shape.
var (
	scopedReport = re(`^(?:je|j'|il|elle|on|ça|ca|cela|c'|ce|nous|ils|elles|yo|él|ella|se|eso|esto|me|eu|ele|ela|isso|ich|er|es|wir|man|das|ik|hij|zij|het|io|lui|lei|si|я|он|она|оно|это|мы|всё|все)(?:[^\p{L}]|$)`)
	// scopedPass is a goal of the moment said of all of them: "todas las pruebas deben pasar".
	scopedPass  = re(`(?:^|[^\p{L}])(?:pasar|passer|passar|bestehen|slagen|passare|passing|pass|проходить|пройти|проходили)(?:[^\p{L}]|$)`)
	scopedFails = re(`(?:^|[^\p{L}])(?:plante|crash\p{L}*|erreur|falla|fallo|error|erro|falha|trava|fehler|stürzt|absturz|faalt|crasht|fout|errore|ошибк\p{L}*|пада\p{L}*|пада|вылета\p{L}*|lỗi)(?:[^\p{L}]|$)`)
)

// scopedRule reports whether a sentence states a rule by its scope, and in which language by
// which cue. A question is none, and neither is a sentence of "every time" that reports.
func scopedRule(s string) (lang, cue string, ok bool) {
	for _, sh := range scopedShapes {
		loc := sh.re.FindStringIndex(s)
		if loc == nil || scopedFails.MatchString(s) || scopedPass.MatchString(s) {
			continue
		}
		if sh.kind && !workKinds.MatchString(s[loc[0]:loc[1]]) {
			continue
		}
		if main := strings.TrimSpace(s[loc[1]:]); sh.clause && (!hasLetters(main) || scopedReport.MatchString(main)) {
			continue
		}
		return sh.lang, sh.cue, true
	}
	return "", "", false
}
