package offline

import (
	"strings"

	"github.com/dreamd/dreamd/internal/extract"
	"github.com/dreamd/dreamd/internal/lazyre"
	"github.com/dreamd/dreamd/internal/memory"
)

// Facts about the project's layout and environment the person stated, in any of the languages
// the rules read: where things are ("tests are in tests/", "配置文件在 config/ 下"), what they
// renamed or moved ("I renamed src/content/config.ts to src/content.config.ts"), what they set
// up and where ("I've configured the host github-work in ~/.ssh/config"), and what they work on
// ("we are in a TPU sandbox VM", "estoy en Windows"), and which environment variable a setting
// comes from, however the sentence is worded around it ("get the connection string from env
// MONGODB_CONNECTION_STRING and use the DB ProductDB": kept up to the name, the rest is the task).
// Each must name a path, an environment or a variable,
// so a sentence about the task at hand ("the bug is in the parser") is none; the fact is kept
// as the person said it.

// statedKind is what a stated fact is about, for its reason.
type statedKind string

const (
	statedLocation    statedKind = "where things are"
	statedRenamed     statedKind = "what was renamed or moved"
	statedSetup       statedKind = "what was set up"
	statedEnvironment statedKind = "the environment"
	statedConfig      statedKind = "where a setting comes from"
	statedCommand     statedKind = "how the work is run"
	statedTooling     statedKind = "what the project uses"
	statedIgnored     statedKind = "what git does not track"
	statedVersion     statedKind = "which version is used"
)

// command is a command as written in prose: a code span, or a runner's name and a few of its
// arguments ("make test", "pnpm test", "go test ./...", "vitest").
const command = "(?P<cmd>`[^`]{2,60}`|(?i:make|npm|pnpm|yarn|bun|npx|pnpx|go|cargo|python3?|pytest|uv|poetry|pip3?|mvn|gradlew?|\\./[\\w.-]+|dotnet|bundle|rake|mix|deno|tox|nox|just|task|vitest|jest|mocha|playwright|phpunit|composer|ruff|eslint|prettier|tsc|docker compose|docker-compose|docker|flutter|dart|swift|xcodebuild|bazel|cmake|ctest|nx|turbo)(?:\\s+(?:[\\w:./=@-]+))*?)(?:\\s*[.!。]?$|\\s+(?:uit|aus|durch|op|auf|sur|en|em|in|im|into|dans|para|pour|für|voor|để)(?:[^\\p{L}]|$)|\\s*(?:来|來|跑|运行|運行|执行|執行|で))"

// toolName is a tool, a library or a service the project uses: one Latin name.
const toolName = `(?P<what>[A-Za-z][A-Za-z0-9_.+#@/-]*)`

// toolFacts are the shapes of what a project uses and how its work is run, read on the whole
// sentence (the contrast is after a comma: "We gebruiken pnpm, niet npm"). "We use X" alone
// is English's (forms.go); the other languages say it with what it is instead of, or of the
// project itself ("dit project gebruikt pnpm"), so that "we gebruiken hier een Map" is none.
var toolFacts = []struct {
	lang string
	kind statedKind
	re   *lazyre.Regexp
}{
	{"en", statedTooling, lazyre.New(`(?i)^(?:this|the|our)\s+(?:project|repo|repository|codebase|app|monorepo)\s+(?:uses|is using|runs on|is built with|is managed with)\s+` + toolName)},
	{"nl", statedTooling, lazyre.New(`(?i)^(?:dit|ons|het|deze)\s+(?:project|repo|repository|codebase)\s+(?:gebruikt|draait op|werkt met)\s+` + toolName)},
	{"nl", statedTooling, lazyre.New(`(?i)^(?:we|wij)\s+(?:gebruiken|werken met)\s+` + toolName + `\s*,?\s+(?:niet|geen|in plaats van)\s+[A-Za-z]`)},
	{"de", statedTooling, lazyre.New(`(?i)^(?:dieses|unser|das)\s+(?:projekt|repo|repository)\s+(?:verwendet|benutzt|nutzt|läuft mit|setzt auf|arbeitet mit)\s+` + toolName)},
	{"de", statedTooling, lazyre.New(`(?i)^wir\s+(?:verwenden|benutzen|nutzen|arbeiten mit)\s+` + toolName + `\s*,?\s+(?:nicht|kein|keine|statt|anstatt|anstelle von)\s+[A-Za-z]`)},
	{"fr", statedTooling, lazyre.New(`(?i)^(?:ce|le|notre)\s+(?:projet|dépôt|repo)\s+(?:utilise|tourne sous|est basé sur)\s+` + toolName)},
	{"fr", statedTooling, lazyre.New(`(?i)^(?:on|nous)\s+(?:utilise|utilisons)\s+` + toolName + `\s*,?\s+(?:pas|et pas|et non|plutôt que|au lieu de)\s+[A-Za-z]`)},
	{"es", statedTooling, lazyre.New(`(?i)^(?:este|el|nuestro)\s+(?:proyecto|repo|repositorio)\s+(?:usa|utiliza)\s+` + toolName)},
	{"es", statedTooling, lazyre.New(`(?i)^(?:usamos|utilizamos)\s+` + toolName + `\s*,?\s+(?:no|y no|en vez de|en lugar de)\s+[A-Za-z]`)},
	{"pt", statedTooling, lazyre.New(`(?i)^(?:este|esse|o|nosso)\s+(?:projeto|repo|repositório)\s+(?:usa|utiliza)\s+` + toolName)},
	{"pt", statedTooling, lazyre.New(`(?i)^(?:usamos|utilizamos)\s+` + toolName + `\s*,?\s+(?:não|e não|em vez de|ao invés de)\s+[A-Za-z]`)},
	{"it", statedTooling, lazyre.New(`(?i)^(?:questo|il|nostro)\s+(?:progetto|repo|repository)\s+(?:usa|utilizza)\s+` + toolName)},
	{"vi", statedTooling, lazyre.New(`(?i)^(?:dự án này|project này|repo này|dự án của (?:chúng tôi|mình)|dự án mình)\s+(?:dùng|sử dụng|xài)\s+` + toolName)},
	{"vi", statedTooling, lazyre.New(`(?i)^(?:chúng tôi|chúng ta|chúng mình|mình|bọn mình|team mình|tụi mình)\s+(?:dùng|sử dụng|xài)\s+` + toolName + `\s*,?\s+(?:chứ không phải|chứ không dùng|không phải|không dùng|thay vì)\s+[A-Za-z]`)},
	{"zh", statedTooling, lazyre.New(`^(?:这个|這個|本|我们的|我們的|我们|我們)?(?:项目|項目|仓库|倉庫|代码库|代碼庫|工程)(?:里|裡|中)?(?:都|统一|統一|一直)?(?:用|使用|用的是|采用|採用)\s*` + toolName)},
	{"zh", statedTooling, lazyre.New(`^(?:我们的|我們的|我们|我們)?(?:后端|後端|前端|数据库|數據庫|服务端|服務端|测试框架|測試框架|包管理器|构建工具|構建工具|ORM|CI)\s*(?:用的是|使用的是|用|使用|采用|採用)\s*` + toolName)},
	{"zh", statedTooling, lazyre.New(`^(?:我们|我們)(?:都|一直|统一|統一)?(?:用|使用|用的是)\s*` + toolName + `\s*[，,]?\s*(?:不是|而不是|不用)\s*[A-Za-z]`)},
	{"ru", statedTooling, lazyre.New(`(?i)^(?:в этом проекте|в проекте|у нас)\s+(?:используется|используются|используем)\s+` + toolName)},
	{"ru", statedTooling, lazyre.New(`(?i)^мы\s+используем\s+` + toolName + `\s*,?\s+(?:а не|не|вместо)\s+[A-Za-z]`)},
	{"it", statedTooling, lazyre.New(`(?i)^(?:usiamo|utilizziamo)\s+` + toolName + `\s*,?\s+(?:non|e non|invece di|al posto di)\s+[A-Za-z]`)},
	{"pl", statedTooling, lazyre.New(`(?i)^(?:w tym projekcie|ten projekt)\s+(?:używamy|używa)\s+` + toolName)},
	{"pl", statedTooling, lazyre.New(`(?i)^używamy\s+` + toolName + `\s*,?\s+(?:nie|a nie|zamiast)\s+[A-Za-z]`)},
	{"cs", statedTooling, lazyre.New(`(?i)^(?:v tomto projektu|tento projekt)\s+(?:používáme|používá)\s+` + toolName)},
	{"cs", statedTooling, lazyre.New(`(?i)^používáme\s+` + toolName + `\s*,?\s+(?:ne|a ne|místo)\s+[A-Za-z]`)},
	{"id", statedTooling, lazyre.New(`(?i)^(?:proyek ini|project ini|repo ini)\s+(?:pakai|memakai|menggunakan)\s+` + toolName)},
	{"id", statedTooling, lazyre.New(`(?i)^(?:kami|kita)\s+(?:pakai|memakai|menggunakan)\s+` + toolName + `\s*,?\s+(?:bukan|tidak|jangan)\s+[A-Za-z]`)},
	{"ko", statedTooling, lazyre.New(`^이\s*(?:프로젝트|저장소|레포)(?:는|에서는|에선)\s*` + toolName + `\s*(?:을|를)?\s*(?:사용합니다|사용해요|써요|씁니다|사용한다|쓴다|사용하고 있어요|사용하고 있습니다)`)},
	{"tr", statedTooling, lazyre.New(`(?i)^bu\s+(?:projede|repoda|projemizde)\s+` + toolName + `(?:'?(?:i|ı|u|ü|yi|yı|yu|yü))?\s+(?:kullanıyoruz|kullanılıyor|kullanırız)`)},
	{"ja", statedTooling, lazyre.New(`^(?:この)?(?:プロジェクト|リポジトリ)(?:では|は)\s*` + toolName + `\s*を(?:使います|使っています|使用します|使用しています|使う|使ってる)`)},

	{"nl", statedCommand, lazyre.New(`(?i)^(?:de\s+)?(?:tests?|testen|build|linter|lint|app|migraties)\s+(?:draaien|runnen|starten|bouwen|doen|draai|run|start|bouw|doe)\s+(?:we|wij|je|jullie)\s+(?:altijd\s+)?(?:met|via)\s+` + command)},
	{"nl", statedCommand, lazyre.New(`(?i)^(?:we|wij)\s+(?:draaien|runnen|starten|bouwen|testen)\s+(?:de\s+)?(?:tests?\s+|build\s+|app\s+)?(?:altijd\s+)?(?:met|via)\s+` + command)},
	{"de", statedCommand, lazyre.New(`(?i)^(?:die\s+|den\s+)?(?:tests|build|app|linter)\s+(?:laufen|starten|bauen|führen|testen|machen)\s+wir\s+(?:immer\s+)?(?:mit|über)\s+` + command)},
	{"de", statedCommand, lazyre.New(`(?i)^wir\s+(?:starten|bauen|testen|führen|lassen)\s+(?:die\s+|den\s+)?(?:tests\s+|build\s+|app\s+)?(?:immer\s+)?(?:mit|über)\s+` + command)},
	{"de", statedCommand, lazyre.New(`(?i)^(?:die\s+)?tests\s+(?:laufen|startet man|führt man aus)\s+(?:immer\s+)?(?:mit|über)\s+` + command)},
	{"fr", statedCommand, lazyre.New(`(?i)^(?:on|nous)\s+(?:lance|lançons|exécute|exécutons|fait tourner|faisons tourner|teste|testons|build|construit)\s+(?:les\s+tests\s+|le\s+build\s+|l'app\s+)?(?:avec|via|par)\s+` + command)},
	{"fr", statedCommand, lazyre.New(`(?i)^les\s+tests\s+(?:se lancent|tournent|s'exécutent|se font)\s+(?:avec|via|par)\s+` + command)},
	{"es", statedCommand, lazyre.New(`(?i)^(?:los\s+)?(?:tests|pruebas)\s+(?:los\s+|las\s+)?(?:corremos|ejecutamos|lanzamos|se corren|se ejecutan|se lanzan)\s+con\s+` + command)},
	{"es", statedCommand, lazyre.New(`(?i)^(?:corremos|ejecutamos|lanzamos)\s+(?:los\s+tests\s+|las\s+pruebas\s+)?con\s+` + command)},
	{"pt", statedCommand, lazyre.New(`(?i)^(?:rodamos|executamos|corremos)\s+(?:os\s+testes\s+|o\s+build\s+)?com\s+` + command)},
	{"pt", statedCommand, lazyre.New(`(?i)^(?:os\s+)?testes\s+(?:rodam|são executados|são rodados|rodamos)\s+com\s+` + command)},
	{"vi", statedCommand, lazyre.New(`(?i)^(?:test|tests|kiểm thử|build|unit test)\s+(?:chạy|được chạy)\s+(?:bằng|với)\s+(?:lệnh\s+)?` + command)},
	{"vi", statedCommand, lazyre.New(`(?i)^(?:chúng tôi|chúng ta|mình|tôi)\s+chạy\s+(?:test|tests|build)\s+(?:bằng|với)\s+(?:lệnh\s+)?` + command)},
	{"zh", statedCommand, lazyre.New(`^(?:测试|測試|单元测试|單元測試|构建|構建|打包|lint)\s*(?:都)?(?:用|使用|通过|通過)\s*` + command)},
	{"zh", statedCommand, lazyre.New(`^(?:测试|測試|构建|構建|启动|啟動|lint|部署)(?:的)?命令是\s*` + command)},
	{"ja", statedCommand, lazyre.New(`^(?:テスト|ビルド|リント)は\s*` + command + `\s*(?:を)?(?:実行|動か|走ら|回)`)},
}

// toolStopWords are what follows a verb of using when no tool is named: "we gebruiken een Map".
var toolStopWords = wordSet("a an the een de het die der das dem den ein eine einen un une le la les l el los las lo o os um uma il this that these hier here nu now dan ook " +
	// a quantity: "this project uses too much memory", "dit project gebruikt veel geheugen"
	// an adverb: "on utilise toujours pas la bonne version" (we still do not use the right one)
	"toujours jamais immer nie noch altijd nooit nog siempre nunca sempre ainda todavía jetzt maintenant ahora agora still also auch ook aussi también também already déjà schon al ya já encore " +
	"too much many lots lot more less veel weinig te meer minder zu viel viele wenig sehr mehr beaucoup trop peu plus mucho muchos mucha demasiado poco más muito muitos pouco demais mais molto troppo poco più")

// zhTask is a Chinese request for the work at hand: "这个项目用 Vue 重写一下" (rewrite it in Vue).
var zhTask = lazyre.New(`一下|帮我|幫我|重写|重寫|改写|改寫|写一个|寫一個|做一个|做一個|实现|實現|搭建|搭一个|开发|開發|吧|试试|試試|能不能|可以吗`)

// commandWords are words of a sentence that a command's arguments cannot be: "corremos con make
// test y falla" ran a command that failed, it states none.
var commandWords = wordSet("y e et und en and o ou oder of or but pero mais aber maar và mà nhưng falla fallan faalt falen échoue échouent schlägt scheitert dá deu erro error errors fails failed failing lỗi")

// failing is a sentence about a failure: it reports what went wrong with a command, not how
// the work is run.
var failing = lazyre.New(`(?i)(?:^|[^\p{L}])(?:falla|fallan|falló|fallo|falha|falham|falhou|fallisce|fallito|errore|faalt|falen|gefaald|mislukt|échoué|fehlgeschlagen|échoue|échouent|schlägt|scheitert|fails?|failed|failing|erro|lỗi|không chạy|broken|kaputt|kapot)(?:[^\p{L}]|$)|失败|失敗|报错|報錯|出错|出錯|エラー|失敗し`)

// plainCommand reports whether cmd is a command and nothing said after it.
func plainCommand(cmd string) bool {
	for _, w := range strings.Fields(strings.ToLower(cmd)) {
		if commandWords[w] {
			return false
		}
	}
	return true
}

// toolFact is the lesson of the first shape of toolFacts sentence st has, nil when it has none;
// whole is the sentence before what it goes on to was cut ("… mas falha": it failed).
func toolFact(st, whole string, s *extract.Session) *lesson {
	for _, f := range toolFacts {
		m := f.re.FindStringSubmatch(st)
		if m == nil {
			continue
		}
		if what := strings.ToLower(named(f.re, m, "what")); what != "" && toolStopWords[what] {
			continue
		}
		if f.lang == "zh" && zhTask.MatchString(st) || f.kind == statedCommand && (!plainCommand(named(f.re, m, "cmd")) || failing.MatchString(whole)) {
			continue
		}
		said := upperFirst(strings.TrimRight(st, "。！.!;； "))
		if strings.HasSuffix(st, "...") {
			said = upperFirst(st) // "go test ./...": the dots are the command's
		}
		return statedLesson(f.kind, f.lang, said, s)
	}
	return nil
}

// envVar is an environment variable's name as written in prose: capitals with an underscore
// (MONGODB_CONNECTION_STRING, OPENROUTER_API_KEY), maybe in a code span.
const envVar = "`?(?P<var>[A-Z][A-Z0-9]*_[A-Z0-9_]*[A-Z0-9])`?"

// envWord is how each language names the environment a setting is read from.
const envWord = `(?:env(?:ironment)?(?:\s+var(?:iable)?s?)?|\.env(?:\s+file)?)`

// versionNumber is a version as written after "version": 16, 3.12, v20.1.0; dottedVersion one
// that says it is a version on its own (3.12, 20.1.0).
const (
	versionNumber = `\d+(?:\.\d+)*\b`
	dottedVersion = `v?\d+\.\d+(?:\.\d+)*\b`
)

// pathLike is a path or file name: a code span, a word with a slash (src/, ~/.ssh/config,
// @lua/x.lua), or a file name with an extension.
const pathLike = "(?:`[^`]{2,80}`|[\"'][^\"'\\s]{2,80}[\"']|@?[\\w.~-]*[/\\\\][\\w./\\\\@~-]*|[\\w-]+\\.(?:md|json|jsonc|ya?ml|toml|lua|py|ts|tsx|js|jsx|mjs|cjs|go|rs|cs|csproj|java|kt|rb|php|astro|vue|svelte|cfg|ini|conf|env|txt|sql|sh|xml|gradle|lock))"

// subject is what a location sentence is about: a few words, not a clause.
const subject = `(?P<what>[\p{L}\p{N}_.-][\p{L}\p{N}_ .'-]{1,40}?)`

// envNoun names an environment: a machine, a container, an operating system.
const envNoun = `(?:vms?|virtual machine|máquina virtual|machine virtuelle|máy ảo|environment|environemt|environemnt|entorno|environnement|umgebung|omgeving|ambiente|môi trường|containers?|contenedor|conteneur|contêiner|sandbox|devcontainer|codespaces?|wsl2?|windows(?: \d+)?|macos|mac|linux|ubuntu|debian|fedora|arch linux|raspberry pi)`

// statedFacts are, per language, the shapes of a stated fact.
var statedFacts = []struct {
	lang string
	kind statedKind
	re   *lazyre.Regexp
}{
	{"en", statedLocation, lazyre.New(`(?i)^(?:the |our |all )?` + subject + ` (?:is|are|live|lives|go|goes|belong|belongs|should be|must be|are kept|is kept|are stored|is stored|sit|sits) (?:in|under|inside) (?:the )?(?P<where>` + pathLike + `)`)},
	{"en", statedLocation, lazyre.New(`(?i)^` + subject + ` (?:is|are) defined (?:in|at) (?:the )?(?:file )?(?P<where>` + pathLike + `)`)},
	{"en", statedLocation, lazyre.New(`(?i)^i(?:'ll| will)? (?:have|keep|put) (?P<what>[\p{L}\p{N}_ .-]{2,40}?) (?:defined |stored |kept )?(?:in|at|under) (?P<where>` + pathLike + `)`)},
	{"en", statedEnvironment, lazyre.New(`(?i)^(?:this|it)(?: is|'s) an? (?P<what>[\p{L}\p{N}_.+#/ -]{2,40}?) (?:project|app|application|repo|repository|codebase|monorepo|site|website|library|service)\b`)},
	{"es", statedEnvironment, lazyre.New(`(?i)^(?:este|esto) es un (?:proyecto|repositorio|sitio|servicio|app|aplicación) (?:de |en |con )?(?P<what>[\p{L}\p{N}_.+#/ -]{2,40})`)},
	{"pt", statedEnvironment, lazyre.New(`(?i)^(?:este|isto|esse) é um (?:projeto|repositório|site|serviço|app|aplicativo) (?:de |em |com )?(?P<what>[\p{L}\p{N}_.+#/ -]{2,40})`)},
	{"fr", statedEnvironment, lazyre.New(`(?i)^(?:c'est|ceci est) un (?:projet|dépôt|site|service|app|application) (?:en |de |avec )?(?P<what>[\p{L}\p{N}_.+#/ -]{2,40})`)},
	{"de", statedEnvironment, lazyre.New(`(?i)^(?:das|dies) ist ein (?P<what>[\p{L}\p{N}_.+#/ -]{2,40}?)[- ](?:projekt|repository|repo|app|dienst)\b`)},
	{"nl", statedEnvironment, lazyre.New(`(?i)^(?:dit|het) is een (?P<what>[\p{L}\p{N}_.+#/ -]{2,40}?)[- ](?:project|repository|repo|app|applicatie|dienst)\b`)},
	{"zh", statedEnvironment, lazyre.New(`^(?:这|這)(?:是一个|是一個|是个|是個|是)\s*(?P<what>[\p{L}\p{N}_.+#/ -]{1,30}?)\s*(?:项目|項目|仓库|倉庫|应用|應用)`)},
	{"ja", statedEnvironment, lazyre.New(`^(?:これは|このリポジトリは|このプロジェクトは)\s*(?P<what>[\p{L}\p{N}_.+#/ -]{1,30}?)\s*(?:の)?(?:プロジェクト|リポジトリ|アプリ)(?:です|だ)`)},
	{"es", statedLocation, lazyre.New(`(?i)^(?:los |las |el |la |todos los |todas las )?` + subject + ` (?:está|están|esta|estan|van|va|viven|vive|se encuentra|se encuentran|se guarda|se guardan|deben estar|debe estar|deberían estar|debería estar|tienen que estar) (?:en|dentro de) (?:el |la |los |las |una |un )?(?:(?:(?:sub)?carpeta |directorio |archivo |fichero )?(?P<where>` + pathLike + `)|(?:sub)?(?:carpeta|directorio) llamad[oa] (?P<dir>[\p{L}\p{N}_-]+))`)},
	{"es", statedLocation, lazyre.New(`(?i)^en el (?:archivo|fichero) (?P<where>` + pathLike + `) se (?:define|definen|configura|configuran|guarda|guardan) (?P<what>.{2,60})`)},
	{"pt", statedLocation, lazyre.New(`(?i)^(?:os |as |o |a )?` + subject + ` (?:está|estão|fica|ficam|deve ficar|devem ficar|devem estar|deve estar) (?:em|no|na|nos|nas|dentro de) (?:uma |um )?(?:(?:sub)?pasta |diretório |arquivo )?(?:chamad[oa] )?(?P<where>` + pathLike + `)`)},
	{"fr", statedLocation, lazyre.New(`(?i)^(?:les |le |la |l'|tous les |toutes les )?` + subject + ` (?:est|sont|se trouve|se trouvent|doit être|doivent être|vit|vivent|va|vont) (?:dans|sous) (?:le |la |les |l'|un |une )?(?:(?:sous-)?dossier |répertoire |fichier )?(?:nommé |appelé )?(?P<where>` + pathLike + `)`)},
	{"de", statedLocation, lazyre.New(`(?i)^(?:die |der |das |alle )?` + subject + ` (?:ist|sind|liegt|liegen|befindet sich|befinden sich|gehört|gehören|kommt|kommen) (?:in|im|unter|nach) (?:dem |der |den |einem |einen )?(?:ordner |verzeichnis |datei )?(?P<where>` + pathLike + `)`)},
	{"nl", statedLocation, lazyre.New(`(?i)^(?:de |het |alle )?` + subject + ` (?:staat|staan|zit|zitten|is|zijn|hoort|horen|moet|moeten|komt|komen) (?:in|onder) (?:de |het |een )?(?:map |directory |bestand )?(?P<where>` + pathLike + `)`)},
	{"vi", statedLocation, lazyre.New(`(?i)^` + subject + ` (?:nằm trong|nằm ở|ở trong|để trong|đặt trong|ở) (?:thư mục |file |tệp )?(?P<where>` + pathLike + `)`)},
	{"zh", statedLocation, lazyre.New(`^(?P<what>[^，。、\s]{1,20}?)(?:都|全部)?(?:在|放在|位于|位於|存放在)\s*(?P<where>` + pathLike + `)\s*(?:(?:目录|目錄|文件夹|文件夾)?(?:下|里|裡|中|里面|裡面)|(?:目录|目錄|文件夹|文件夾)\s*[。.]?$)`)},
	{"zh", statedLocation, lazyre.New(`^(?:注意[:：]\s*)?(?P<what>[^，。、\s]{1,20}?)(?:都|全部)?(?:在|放在|位于|位於|存放在)\s*(?P<where>[\w./~-]*\.[A-Za-z]{1,5})\s*(?:文件|文件里|文件中)?\s*[。.]?$`)},
	{"ja", statedLocation, lazyre.New(`^(?P<what>[^、。\s]{1,20}?)は\s*(?P<where>` + pathLike + `)\s*(?:ディレクトリ|フォルダ)?(?:に|の中に|の下に|配下に)(?:あります|ある|置いて|入って|置く)`)},
	{"ru", statedLocation, lazyre.New(`(?i)^` + subject + ` (?:лежит|лежат|находится|находятся|хранится|хранятся|живёт|живет|живут|расположен|расположена|расположены|должен лежать|должны лежать|должны быть|должен быть) (?:в|во|под) (?:папке |каталоге |директории |файле )?(?P<where>` + pathLike + `)`)},
	{"uk", statedLocation, lazyre.New(`(?i)^` + subject + ` (?:лежить|лежать|знаходиться|знаходяться|зберігається|зберігаються|розташований|розташовані|мають бути|має бути) (?:в|у|під) (?:папці |каталозі |теці |файлі )?(?P<where>` + pathLike + `)`)},
	{"it", statedLocation, lazyre.New(`(?i)^(?:i |gli |le |il |lo |la |l'|tutti i |tutte le )?` + subject + ` (?:è|sono|si trova|si trovano|sta|stanno|vive|vivono|va|vanno|deve stare|devono stare|devono essere|deve essere) (?:in|nella|nel|nei|nelle|dentro|sotto) (?:la |il |una |un )?(?:(?:sotto)?cartella |directory |file )?(?P<where>` + pathLike + `)`)},
	{"pl", statedLocation, lazyre.New(`(?i)^` + subject + ` (?:jest|są|znajduje się|znajdują się|leży|leżą|mieszka|mieszkają|powinny być|powinien być|powinna być) (?:w|we|pod) (?:folderze |katalogu |pliku )?(?P<where>` + pathLike + `)`)},
	{"cs", statedLocation, lazyre.New(`(?i)^` + subject + ` (?:je|jsou|se nachází|se nacházejí|leží|mají být|má být) (?:v|ve|pod) (?:adresáři |složce |souboru )?(?P<where>` + pathLike + `)`)},
	{"id", statedLocation, lazyre.New(`(?i)^` + subject + ` (?:ada|berada|terletak|disimpan|diletakkan|harus ada|harus berada) (?:di dalam|di|dalam|pada) (?:folder |direktori |file |berkas )?(?P<where>` + pathLike + `)`)},
	// Turkish says where with a locative ending on the path or on the word for a folder, the
	// verb last: "testler tests/ klasöründe", "ayarlar config.yaml'da"; a locative before a
	// verb is a task ("canvas.py içinde … kur": set it up in canvas.py).
	{"tr", statedLocation, lazyre.New(`(?i)^` + subject + `\s+(?P<where>` + pathLike + `)(?:'(?:de|da|te|ta)|\s+(?:klasöründe|klasörü içinde|dizininde|dosyasında|içinde|altında))(?:dır|dir|\s+(?:bulunuyor|bulunur|duruyor|yer alıyor|yer alır))?[.!]?$`)},
	// Korean: the topic with its particle, the path, then where and "is": "테스트는 tests/ 폴더에 있어요".
	{"ko", statedLocation, lazyre.New(`^(?P<what>\S{1,20}?)(?:은|는|이|가)\s+(?P<where>` + pathLike + `)\s*(?:폴더|디렉터리|디렉토리|파일)?\s*(?:에|안에|아래에|밑에)\s*(?:있어|있어요|있습니다|있다|있음|있고|있으니)`)},

	{"en", statedConfig, lazyre.New(`(?i:^(?:please\s+|always\s+)?(?:get|read|take|load|pull|fetch)s?\s+(?:the\s+|our\s+|my\s+)?)(?P<what>[\p{L}\p{N} _.-]{2,40}?)\s+(?i:from\s+(?:the\s+)?` + envWord + `)\s+` + envVar)},
	{"en", statedConfig, lazyre.New(`(?i:^(?:the\s+|our\s+|my\s+)?)(?P<what>[\p{L}\p{N} _.-]{2,40}?)\s+(?i:(?:is|are|comes?|gets?)\s+(?:read\s+|loaded\s+|taken\s+)?(?:from|in)\s+(?:the\s+)?(?:` + envWord + `\s+)?)` + envVar + `(?i:\s+` + envWord + `)?`)},
	{"es", statedConfig, lazyre.New(`(?i:^(?:lee|leer|obtén|obtener|toma|tomar|saca|sacar|carga|cargar)\s+(?:el |la |los |las )?)(?P<what>[\p{L}\p{N} _.-]{2,40}?)\s+(?i:de\s+la\s+variable\s+de\s+entorno)\s+` + envVar)},
	{"pt", statedConfig, lazyre.New(`(?i:^(?:leia|ler|pegue|pegar|obtenha|obter|carregue|carregar)\s+(?:o |a |os |as )?)(?P<what>[\p{L}\p{N} _.-]{2,40}?)\s+(?i:da\s+variável\s+de\s+ambiente)\s+` + envVar)},
	{"fr", statedConfig, lazyre.New(`(?i:^(?:récupère|récupérer|lis|lire|prends|prendre|charge|charger)\s+(?:le |la |les |l')?)(?P<what>[\p{L}\p{N} _.'-]{2,40}?)\s+(?i:(?:depuis|dans|de)\s+la\s+variable\s+d'environnement)\s+` + envVar)},
	{"de", statedConfig, lazyre.New(`(?i:^(?:lies|lese|hole|lade|nimm)\s+(?:den |die |das )?)(?P<what>[\p{L}\p{N} _.-]{2,40}?)\s+(?i:aus\s+der\s+umgebungsvariablen?)\s+` + envVar)},
	{"nl", statedConfig, lazyre.New(`(?i:^(?:lees|haal|laad|neem)\s+(?:de |het )?)(?P<what>[\p{L}\p{N} _.-]{2,40}?)\s+(?i:uit\s+de\s+omgevingsvariabele)\s+` + envVar)},
	{"vi", statedConfig, lazyre.New(`(?i:^(?:hãy\s+)?(?:lấy|đọc)\s+)(?P<what>[\p{L}\p{N} _.-]{2,40}?)\s+(?i:từ\s+biến\s+môi\s+trường)\s+` + envVar)},
	{"zh", statedConfig, lazyre.New(`(?:从|從)环境变量\s*` + envVar + `\s*(?:里|裡|中)?(?:读取|讀取|获取|獲取|读|讀|取)(?P<what>\S{0,20})`)},
	{"ja", statedConfig, lazyre.New(`(?P<what>\S{0,20}?)(?:は)?環境変数\s*` + envVar + `\s*(?:から|を使って)`)},

	{"en", statedRenamed, lazyre.New(`(?i)\bi(?: have|'ve)? (?:just )?(?:renamed|moved) (?P<old>` + pathLike + `) (?:to|into|as) (?P<new>` + pathLike + `)`)},
	{"fr", statedRenamed, lazyre.New(`(?i)\bj'ai (?:renommé|déplacé) (?P<old>` + pathLike + `) (?:en|vers|dans) (?P<new>` + pathLike + `)`)},
	{"es", statedRenamed, lazyre.New(`(?i)\b(?:he |ya he )?(?:renombrado|renombré|movido|moví|cambié el nombre de) (?P<old>` + pathLike + `) (?:a|en|como|hacia) (?P<new>` + pathLike + `)`)},
	{"pt", statedRenamed, lazyre.New(`(?i)\b(?:eu )?(?:renomeei|movi) (?P<old>` + pathLike + `) (?:para|como) (?P<new>` + pathLike + `)`)},
	{"de", statedRenamed, lazyre.New(`(?i)\bich habe (?P<old>` + pathLike + `) (?:in|nach|zu) (?P<new>` + pathLike + `) (?:umbenannt|verschoben)`)},
	{"nl", statedRenamed, lazyre.New(`(?i)\bik heb (?P<old>` + pathLike + `) (?:hernoemd |verplaatst )?naar (?P<new>` + pathLike + `)(?: hernoemd| verplaatst)?`)},
	{"zh", statedRenamed, lazyre.New(`(?:我|我们|我們|已|已经|已經)\s*(?:已经|已經|已|刚|剛)?\s*(?:把|将|將)\s*(?P<old>` + pathLike + `)\s*(?:改名为|改名為|重命名为|重命名為|改成|移到|移动到|移動到|挪到)\s*(?P<new>` + pathLike + `)`)},

	{"en", statedSetup, lazyre.New(`(?i)\bi(?: have|'ve)? (?:already )?(?:configured|set up|setup|installed|defined) (?P<what>.{2,60}?) (?:in|at|on) (?P<where>` + pathLike + `)`)},
	{"es", statedSetup, lazyre.New(`(?i)\b(?:yo )?(?:ya )?(?:he|tengo) (?:configurado|instalado|definido) (?P<what>.{2,60}?) en (?P<where>` + pathLike + `)`)},
	{"fr", statedSetup, lazyre.New(`(?i)\bj'ai (?:déjà )?(?:configuré|installé|défini|mis en place) (?P<what>.{2,60}?) dans (?P<where>` + pathLike + `)`)},
	{"pt", statedSetup, lazyre.New(`(?i)\b(?:eu )?(?:já )?(?:configurei|instalei|defini) (?P<what>.{2,60}?) (?:em|no|na) (?P<where>` + pathLike + `)`)},
	{"de", statedSetup, lazyre.New(`(?i)\bich habe (?P<what>.{2,60}?) (?:in|im|unter) (?P<where>` + pathLike + `) (?:konfiguriert|eingerichtet|installiert|definiert)`)},
	{"nl", statedSetup, lazyre.New(`(?i)\bik heb (?P<what>.{2,60}?) in (?P<where>` + pathLike + `) (?:geconfigureerd|ingesteld|geïnstalleerd|gedefinieerd)`)},
	{"zh", statedSetup, lazyre.New(`我(?:已经|已經)?在\s*(?P<where>` + pathLike + `)\s*(?:里|裡|中)?(?:配置|设置|設置|装|裝|定义|定義)了\s*(?P<what>\S{1,30})`)},

	// what the person put in .gitignore: "I added dist/ to .gitignore", "ho reinserito in
	// .gitignore sia il docker-compose.yml che il Dockerfile"; "add dist/ to .gitignore" asks.
	{"en", statedIgnored, lazyre.New(`(?i)\bi(?: have|'ve)? (?:just |already |also )?(?:re-?)?(?:added|put) (?P<what>.{2,60}?) (?:to|in|into) (?:the |my |our )?\.gitignore\b`)},
	{"fr", statedIgnored, lazyre.New(`(?i)\bj'ai (?:déjà |aussi )?(?:re)?(?:ajouté|mis) (?P<what>.{2,60}?) (?:au|dans le|dans) \.gitignore\b`)},
	{"es", statedIgnored, lazyre.New(`(?i)\b(?:he |ya he )?(?:agregado|añadido|agregué|añadí|puesto|puse|metido|metí) (?P<what>.{2,60}?) (?:al|en el) \.gitignore\b`)},
	{"pt", statedIgnored, lazyre.New(`(?i)\b(?:eu )?(?:já )?(?:adicionei|coloquei|pus) (?P<what>.{2,60}?) (?:no|ao|na) \.gitignore\b`)},
	{"it", statedIgnored, lazyre.New(`(?i)\bho (?:già |anche )?(?:re)?(?:inserito|aggiunto|messo) (?:(?:in|nel|nella|al) \.gitignore (?P<what>.{2,60})|(?P<what2>.{2,60}?) (?:in|nel|nella|al) \.gitignore\b)`)},
	{"de", statedIgnored, lazyre.New(`(?i)\bich habe (?P<what>.{2,60}?) (?:in die|zur|in der|zu der) \.gitignore (?:aufgenommen|hinzugefügt|eingetragen|gepackt)`)},
	{"nl", statedIgnored, lazyre.New(`(?i)\bik heb (?P<what>.{2,60}?) (?:aan|in) (?:de |het )?\.gitignore (?:toegevoegd|gezet)`)},
	{"zh", statedIgnored, lazyre.New(`(?:我)?(?:已经|已經)?(?:把|将|將)\s*(?P<what>\S.{0,40}?)\s*(?:加到|加入|添加到|放到|放进|放進|写进|寫進)(?:了)?\s*\.gitignore`)},

	// which version is in use, said as the person's own upgrade: "I have updated runtime to
	// version 16", "j'ai mis à jour Node en version 20"; a number without "version" or a dot
	// ("I updated the timeout to 30") is a setting of the moment.
	{"en", statedVersion, lazyre.New(`(?i)\bi(?: have|'ve)? (?:just |now |already )?(?:updated|upgraded|bumped|switched|moved) (?:the |our |my )?(?P<what>[\p{L}\p{N}._+-]{2,30}(?: [\p{L}\p{N}._+-]{2,20})?) to (?:version |v)` + versionNumber + `|\bi(?: have|'ve)? (?:just |now |already )?(?:updated|upgraded|bumped|switched|moved) (?:the |our |my )?(?P<what2>[\p{L}\p{N}._+-]{2,30}) to ` + dottedVersion)},
	{"fr", statedVersion, lazyre.New(`(?i)\bj'ai (?:mis à jour|mis à niveau|passé|migré) (?:le |la |l'|les )?(?P<what>[\p{L}\p{N}._+-]{2,30}) (?:en|vers la|à la|vers|à) (?:version |v)` + versionNumber)},
	{"es", statedVersion, lazyre.New(`(?i)\b(?:he |ya he )?(?:actualizado|actualicé|subido|subí|migrado|migré) (?:el |la |los |las )?(?P<what>[\p{L}\p{N}._+-]{2,30}) a (?:la )?(?:versión |version |v)` + versionNumber)},
	{"pt", statedVersion, lazyre.New(`(?i)\b(?:eu )?(?:atualizei|migrei|subi) (?:o |a |os |as )?(?P<what>[\p{L}\p{N}._+-]{2,30}) para (?:a )?(?:versão |v)` + versionNumber)},
	{"it", statedVersion, lazyre.New(`(?i)\bho (?:aggiornato|portato|migrato) (?:il |la |lo |l'|i |le )?(?P<what>[\p{L}\p{N}._+-]{2,30}) (?:alla |a |all')(?:versione |v)` + versionNumber)},
	{"de", statedVersion, lazyre.New(`(?i)\bich habe (?:den |die |das )?(?P<what>[\p{L}\p{N}._+-]{2,30}) auf (?:version |v)` + versionNumber + `\s+(?:aktualisiert|upgegradet|geupdatet|gehoben|angehoben)`)},
	{"nl", statedVersion, lazyre.New(`(?i)\bik heb (?:de |het )?(?P<what>[\p{L}\p{N}._+-]{2,30}) (?:geüpdatet|bijgewerkt|geüpgraded|geupgrade) naar (?:versie |v)` + versionNumber)},
	{"zh", statedVersion, lazyre.New(`(?:我)?(?:已经|已經)?(?:把|将|將)\s*(?P<what>[\p{L}\p{N}._+-]{1,30}?)\s*(?:升级|升級|更新)(?:到|至)了?\s*(?:版本\s*)?v?` + versionNumber)},

	{"en", statedEnvironment, lazyre.New(`(?i)\b(?:we|you|i)(?: are|'re| am|'m) (?:running |working )?(?:in|on|inside|using) (?:a |an |the |my |our )?(?P<what>[\p{L}\p{N} .+-]{0,40}?\b` + envNoun + `)\b`)},
	{"es", statedEnvironment, lazyre.New(`(?i)\b(?:estamos|estoy|estás|trabajo|trabajamos) (?:en|dentro de|usando|con) (?:un |una |el |la |mi )?(?P<what>[\p{L}\p{N} .+-]{0,40}?\b` + envNoun + `)\b`)},
	{"pt", statedEnvironment, lazyre.New(`(?i)\b(?:estamos|estou|trabalho|trabalhamos) (?:em|num|numa|no|na|usando|com) (?:um |uma |o |a |meu |minha )?(?P<what>[\p{L}\p{N} .+-]{0,40}?\b` + envNoun + `)\b`)},
	{"fr", statedEnvironment, lazyre.New(`(?i)\b(?:on est|nous sommes|je suis|tu es|je travaille|on travaille) (?:sur|dans|sous) (?:un |une |le |la |mon |ma )?(?P<what>[\p{L}\p{N} .+-]{0,40}?\b` + envNoun + `)\b`)},
	{"de", statedEnvironment, lazyre.New(`(?i)\b(?:wir sind|ich bin|du bist|ich arbeite|wir arbeiten) (?:auf|in|unter|mit) (?:einer |einem |der |dem |meinem )?(?P<what>[\p{L}\p{N} .+-]{0,40}?\b` + envNoun + `)\b`)},
	{"nl", statedEnvironment, lazyre.New(`(?i)\b(?:we zitten|ik zit|je zit|we werken|ik werk) (?:op|in|met) (?:een |de |het |mijn )?(?P<what>[\p{L}\p{N} .+-]{0,40}?\b` + envNoun + `)\b`)},
	{"vi", statedEnvironment, lazyre.New(`(?i)\b(?:chúng ta|chúng tôi|mình|tôi|bạn) (?:đang )?(?:ở trong|ở|dùng|chạy trên|làm việc trên|trên) (?P<what>[\p{L}\p{N} .+-]{0,40}?` + envNoun + `)`)},
	{"zh", statedEnvironment, lazyre.New(`(?i)(?:我们|我們|我|你)(?:现在|現在)?(?:在|用的是|使用)\s*(?P<what>[\p{L}\p{N} .+-]{0,20}?(?:虚拟机|虛擬機|环境|環境|容器|服务器|伺服器|windows|mac|linux|wsl|ubuntu))(?:上|里|裡|中)?`)},
	{"ru", statedEnvironment, lazyre.New(`(?i)(?:^|[^\p{L}])(?:я работаю|мы работаем|я сижу|у меня|мы|я) (?:на|в|под) (?P<what>[\p{L}\p{N} .+-]{0,40}?\b` + envNoun + `)\b`)},
	{"it", statedEnvironment, lazyre.New(`(?i)\b(?:sono|siamo|lavoro|lavoriamo|sto lavorando) (?:su|in|dentro|con) (?:un |una |il |la |mio |mia )?(?P<what>[\p{L}\p{N} .+-]{0,40}?\b` + envNoun + `)\b`)},
	{"pl", statedEnvironment, lazyre.New(`(?i)(?:^|[^\p{L}])(?:pracuję|pracujemy|jestem|jesteśmy) (?:na|w|pod) (?P<what>[\p{L}\p{N} .+-]{0,40}?\b` + envNoun + `)\b`)},
	{"id", statedEnvironment, lazyre.New(`(?i)\b(?:saya|aku|kami|kita) (?:sedang )?(?:pakai|memakai|menggunakan|bekerja di|di|ada di) (?P<what>[\p{L}\p{N} .+-]{0,40}?\b` + envNoun + `)\b`)},
	{"en", statedEnvironment, lazyre.New(`(?i)^(?:the |our |my )?(?:site|website|app|application|api|service|backend|frontend|blog) (?:is|runs) (?:live |deployed |hosted |running )?(?:on|at) (?P<what>[\p{L}\p{N}.-]{2,30})\b`)},
	{"fr", statedEnvironment, lazyre.New(`(?i)^(?:le |la |l'|mon |notre )?(?:site|appli|application|api|service|backend|frontend|blog) (?:est|tourne) (?:en ligne |déployée? |hébergée? )?(?:sur|chez) (?P<what>[\p{L}\p{N}.-]{2,30})\b`)},
	{"es", statedEnvironment, lazyre.New(`(?i)^(?:el |la |mi |nuestra |nuestro )?(?:sitio|web|página|app|aplicación|api|servicio|backend|frontend|blog) (?:está|corre) (?:en línea |desplegad[oa] |alojad[oa] |publicad[oa] )?(?:en) (?P<what>[\p{L}\p{N}.-]{2,30})\b`)},
	{"pt", statedEnvironment, lazyre.New(`(?i)^(?:o |a |meu |minha |nosso |nossa )?(?:site|app|aplicação|api|serviço|backend|frontend|blog) (?:está|roda) (?:no ar |implantad[oa] |hospedad[oa] |publicad[oa] )?(?:em|no|na) (?P<what>[\p{L}\p{N}.-]{2,30})\b`)},
	{"de", statedEnvironment, lazyre.New(`(?i)^(?:die |das |der |unsere |meine )?(?:seite|website|app|anwendung|api|dienst|backend|frontend|blog) (?:ist|läuft) (?:live |gehostet |deployt )?(?:auf|bei) (?P<what>[\p{L}\p{N}.-]{2,30})\b`)},
	{"nl", statedEnvironment, lazyre.New(`(?i)^(?:de |het |onze |mijn )?(?:site|website|app|applicatie|api|dienst|backend|frontend|blog) (?:staat|draait) (?:live |gehost )?(?:op|bij) (?P<what>[\p{L}\p{N}.-]{2,30})\b`)},
	{"ja", statedEnvironment, lazyre.New(`(?i)(?P<what>[\p{L}\p{N} .+-]{0,20}?(?:windows|mac|linux|wsl|ubuntu|仮想マシン|コンテナ|サーバー))(?:を使って|で作業|上で作業|の環境)`)},
}

// taskSubjects are what a sentence about the work of the moment is about: where a bug is, not
// where the tests are; the person asking the agent ("i need you to go inside docs/REPO_MAP.md …").
var taskSubjects = lazyre.New(`(?i)\b(?:bug|bugs|error|errors|issue|issues|problem|problems|fix|change|changes|typo|mistake|crash|exception|failure|warning|it|this|that|which|what|everything|something|fallo|error|problema|erreur|problème|fehler|problem|fout|lỗi|the line|la línea|la ligne)$|问题|問題|错误|錯誤|报错|報錯|毛病|原因|^(?:i|we)\s+(?:need|want|would\s+like|'d\s+like|ask)\b|\byou\s+to$|^先|^(?:另外|然后|然後|再|并|並|并且|並且|还|還|也|请|請|帮我|幫我|麻烦|麻煩)$|^(?:这|這)?需要|计划|計劃|(?:^|[^\p{L}])(?:ошибка|ошибки|баг|баги|проблема|помилка|помилки|проблема|errore|errori|problema|błąd|błędy|chyba|chyby|hata|hatalar|sorun|kesalahan|masalah|오류|버그|문제|에러)$`)

// statedLessons returns the facts about the project and its environment a user turn states, each
// as the clause of the person's sentence that states it.
func statedLessons(text string, s *extract.Session) []*lesson {
	var out []*lesson
	seen := map[string]bool{}
	for _, line := range proseLines(text) {
		for _, sentence := range splitLang(line) {
			if asksCJK(tidy(sentence)) {
				continue
			}
			if st := tidy(listMarker.ReplaceAllString(strings.TrimSpace(sentence), "")); st != "" && len(st) <= maxSentence && !isQuestion(st) && !hasSecret(st) && !dayWords.MatchString(st) {
				whole := st
				if loc := butClause.FindStringIndex(st); loc != nil {
					st = st[:loc[0]] // "This project uses Python 3.8 but I have 3.12 installed"
				}
				if n := toolFact(st, whole, s); n != nil {
					if !seen[n.rule] {
						seen[n.rule] = true
						out = append(out, n)
					}
					continue
				}
			}
			for _, c := range clause.Split(sentence, -1) {
				st := tidy(listMarker.ReplaceAllString(strings.TrimSpace(c), ""))
				if st == "" || len(st) > maxSentence || isQuestion(st) || strings.HasSuffix(st, "？") || hasSecret(st) {
					continue
				}
				if n := statedFact(st, s); n != nil && !seen[n.rule] {
					seen[n.rule] = true
					out = append(out, n)
				}
			}
		}
	}
	return out
}

// butClause opens what a sentence goes on to after what it states: "… but I have 3.12".
var butClause = lazyre.New(`\s(?:but|mais|pero|aber|maar|mas|ma|nhưng)\s|但是|但|不过|不過`)

// clause cuts a sentence where one clause ends and another begins.
var clause = lazyre.New(`[,;，；、]\s+|[，；]|\s(?:but|mais|pero|aber|maar|mas|nhưng)\s|但是|但`)

// statedFact is the lesson of the first fact shape clause st has, nil when it has none.
func statedFact(st string, s *extract.Session) *lesson {
	for _, f := range statedFacts {
		m := f.re.FindStringSubmatch(st)
		if m == nil {
			continue
		}
		if what := strings.TrimSpace(named(f.re, m, "what")); f.kind == statedLocation && (taskSubjects.MatchString(what) || relativeWord.MatchString(what) || zhDoer.MatchString(what)) {
			continue
		}
		if where := named(f.re, m, "where"); f.kind == statedLocation && (datedName.MatchString(where) || wordPair.MatchString(where)) {
			continue // "看板也在 dashboard_2026-05-14.html": the day's file; "在 switch/case 里": no place
		}
		if f.kind == statedEnvironment && (onlyQualities(named(f.re, m, "what")) || zhAddressed.MatchString(named(f.re, m, "what"))) {
			continue // "This is a separate service": what kind of thing, not what it runs on
		}
		if i := strings.Index(st, m[0]); i > 0 && (conditional.MatchString(st[:i]) || zhAsks.MatchString(st[:i])) {
			continue // "… détecter si on est sur mac": a condition, not where we are; "請幫我把…": a request
		}
		said := upperFirst(strings.TrimRight(st, "。！.!;； "))
		if f.kind == statedConfig || f.kind == statedIgnored || f.kind == statedVersion {
			said = upperFirst(strings.TrimRight(m[0], "。！.!;； ")) // what follows the name is the task: "… and use the DB ProductDB"
		}
		return statedLesson(f.kind, f.lang, said, s)
	}
	return nil
}

// zhDoer is a Chinese "what" that is only someone doing something: "我存在API.md里面了" (I stored
// [it] in API.md) says what the person did, not what lives there; "我的配置" is theirs, and kept.
var zhDoer = lazyre.New(`^(?:我|你|您|他|她)(?:们|們)?[^的们們]{0,2}$`)

// zhAsks closes the words before a Chinese fact's shape when they ask for it: "請幫我把 X 移到
// Y" asks for the move, "我把 X 移到了 Y" says it was made.
var zhAsks = lazyre.New(`(?:请|請|帮|幫|麻烦|麻煩|让|讓|能不能|可以|你|您)\s*$`)

// datedName is a file or folder named by its day: what a day's work wrote.
var datedName = lazyre.New(`\d{4}-?\d{2}-?\d{2}`)

// wordPair is two words a slash joins that no path is made of: a construct, a choice, a pair.
var wordPair = lazyre.New(`(?i)^(?:switch/case|if/else|try/catch|async/await|and/or|true/false|yes/no|on/off|read/write|input/output|i/o|client/server|frontend/backend|front/back|get/set|before/after|pros/cons|start/stop|open/close|login/logout|import/export|push/pull|ci/cd|ui/ux|tcp/ip|a/b|he/she|his/her)$`)

// zhAddressed is a Chinese "what" that speaks to someone: "这是让你了解…项目的指令" (this is
// the instruction for you to learn the project) says what a message is, not the project.
var zhAddressed = lazyre.New(`你|您|我|让|讓|给|給`)

// qualities are words that say how a thing is, not what it is built with or runs on.
var qualities = map[string]bool{
	"separate": true, "new": true, "small": true, "simple": true, "big": true, "large": true, "different": true,
	"old": true, "personal": true, "private": true, "public": true, "internal": true, "legacy": true,
	"side": true, "test": true, "demo": true, "sample": true, "hobby": true, "real": true, "full": true,
	"whole": true, "standalone": true, "independent": true, "existing": true, "very": true, "huge": true,
	"separado": true, "separada": true, "nuevo": true, "nueva": true, "pequeño": true, "pequeña": true,
	"séparé": true, "nouveau": true, "petit": true, "neues": true, "kleines": true, "nieuw": true, "klein": true,
}

// onlyQualities reports whether every word of what is a quality ("separate", "small new").
func onlyQualities(what string) bool {
	words := strings.Fields(strings.ToLower(strings.Trim(what, ".!,;: ")))
	for _, w := range words {
		if !qualities[w] {
			return false
		}
	}
	return len(words) > 0
}

// relativeWord opens a relative clause or a request: "read the table that is in X" is about the
// table of the moment, not where things are.
var relativeWord = lazyre.New(`(?i)(?:^|\s)(?:que|which|that|who|qui|dont|die|dat|welche|onde|où|mà|read|lee|lis|lies|lees|open|abre|ouvre|öffne|look|mira|regarde|check|revisa|vérifie|prüfe|controleer|find|busca|cherche|suche|zoek)(?:\s|$)`)

// conditional closes the words before a fact's shape when the fact is only a condition: "if we
// are on Windows", "si on est sur mac", "wenn wir in einem Container sind", "如果我们在虚拟机里".
var conditional = lazyre.New(`(?i)(?:^|[^\p{L}])(?:if|when|whether|unless|si|cuando|quand|lorsque|se|quando|wenn|falls|ob|als|indien|of|nếu|khi|если|когда|якщо|коли|jeśli|jeżeli|pokud|jika|kalau|eğer)\s*$|(?:如果|假如|要是|若是|もし)\s*$`)

// listMarker is the number or bullet a line of a list opens with: "1. ", "- ", "3) ".
var listMarker = lazyre.New(`^(?:[-*•]|\d{1,2}[.)])\s+`)

// named is the text of re's named group in m, "" when it has none.
func named(re *lazyre.Regexp, m []string, name string) string {
	if i := re.SubexpIndex(name); i >= 0 && i < len(m) {
		return m[i]
	}
	return ""
}

// statedLesson is a fact the person stated, as they said it: a project memory.
func statedLesson(kind statedKind, lang, said string, s *extract.Session) *lesson {
	n := &lesson{typ: memory.Project, label: "stated " + string(kind), rule: said, sentence: said, core: said, session: s}
	if lang != "en" {
		n.lang = lang
	}
	n.facts = factsOf(said)
	return n
}
