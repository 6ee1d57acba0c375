package offline

import (
	"fmt"
	"iter"
	"path"
	"slices"
	"strings"
	"unicode"

	"github.com/dreamd/dreamd/internal/extract"
	"github.com/dreamd/dreamd/internal/lazyre"
	"github.com/dreamd/dreamd/internal/memory"
	"github.com/dreamd/dreamd/internal/transcript"
)

// What the project is built with and where its settings live, read from the names a person's
// request carries: names are the same in every language ("本项目前端使用Next.js 15、shadcn、
// tailwind", "я хочу использовать React.js + Mantine", "我已在.env.local中配置
// NEXT_PUBLIC_SUPABASE_URL"), so the sentence around them needs only its shape read: who uses
// them (the project, its frontend, backend or database, "we"), and that the clause states it
// rather than asks, wants, compares, replaces, denies or adds the thing for the first time.
// Three kinds are kept:
//
//   - the stack: frameworks, libraries and databases of a small table of well-known names,
//     written with their own spelling ("The frontend uses Next.js 15, shadcn/ui and Tailwind
//     CSS.", "The database is Supabase."), said of the project or of setting it up;
//   - where it is deployed: a hosting platform of the table ("The project is deployed on
//     Vercel.");
//   - which environment variables a config file sets ("`NEXT_PUBLIC_SUPABASE_URL` is set in
//     `.env.local`."): the names only, never a value.
//
// The memory is written from the names, not the person's words. Where the agent's own calls in
// the session touched what the statement names (read or edited `.env.local`, `next.config.ts`,
// installed `@mantine/core`), the basis says so; a weakly worded statement (the person's "I'm
// using X", "I want to use X") is kept only with that confirmation.

// techKind is what a well-known name is, for how a memory states it.
type techKind int

const (
	techFramework techKind = iota // a framework or a platform an app is written on
	techLibrary                   // a UI kit, a CSS framework, a state or data library
	techDatabase                  // a database or a backend-as-a-service
	techHosting                   // a platform the app is deployed on
)

// tech is a well-known name: its canonical spelling, the spellings people type (lower case, the
// canonical one included), what it is, and the files and packages of a project that uses it.
type tech struct {
	name    string
	kind    techKind
	aliases []string
	files   []string // file or directory names (without extension when it varies) only this tech has
	pkgs    []string // package names, or prefixes ending in "/", an install of which sets it up
}

// techs is the table of well-known names. It is data only, and kept small: a name is here when
// projects commonly say they are built with it and its spelling is not an everyday word.
var techs = []tech{
	{"Next.js", techFramework, []string{"next.js", "nextjs", "next.js app router"}, []string{"next.config"}, []string{"next"}},
	{"React", techFramework, []string{"react", "react.js", "reactjs"}, nil, []string{"react"}},
	{"React Native", techFramework, []string{"react native", "react-native"}, nil, []string{"react-native"}},
	{"Vue", techFramework, []string{"vue", "vue.js", "vuejs"}, []string{"vue.config"}, []string{"vue"}},
	{"Nuxt", techFramework, []string{"nuxt", "nuxt.js", "nuxtjs"}, []string{"nuxt.config"}, []string{"nuxt"}},
	{"Svelte", techFramework, []string{"svelte"}, []string{"svelte.config"}, []string{"svelte"}},
	{"SvelteKit", techFramework, []string{"sveltekit", "svelte kit"}, []string{"svelte.config"}, []string{"@sveltejs/kit"}},
	{"Angular", techFramework, []string{"angular"}, []string{"angular.json"}, []string{"@angular/"}},
	{"Astro", techFramework, []string{"astro"}, []string{"astro.config"}, []string{"astro"}},
	{"Remix", techFramework, []string{"remix"}, []string{"remix.config"}, []string{"@remix-run/"}},
	{"VitePress", techFramework, []string{"vitepress"}, []string{".vitepress"}, []string{"vitepress"}},
	{"Vite", techFramework, []string{"vite"}, []string{"vite.config"}, []string{"vite"}},
	{"Express", techFramework, []string{"express", "express.js", "expressjs"}, nil, []string{"express"}},
	{"NestJS", techFramework, []string{"nestjs", "nest.js"}, []string{"nest-cli.json"}, []string{"@nestjs/"}},
	{"FastAPI", techFramework, []string{"fastapi"}, nil, []string{"fastapi"}},
	{"Django", techFramework, []string{"django"}, []string{"manage.py"}, []string{"django"}},
	{"Flask", techFramework, []string{"flask"}, nil, []string{"flask"}},
	{"Ruby on Rails", techFramework, []string{"rails", "ruby on rails"}, nil, []string{"rails"}},
	{"Laravel", techFramework, []string{"laravel"}, []string{"artisan"}, []string{"laravel/"}},
	{"Spring Boot", techFramework, []string{"spring boot", "springboot", "spring-boot"}, nil, nil},
	{"ASP.NET Core", techFramework, []string{"asp.net core", "asp.net", "aspnetcore"}, nil, nil},
	{"Flutter", techFramework, []string{"flutter"}, []string{"pubspec.yaml"}, nil},
	{"Expo", techFramework, []string{"expo"}, nil, []string{"expo"}},
	{"Electron", techFramework, []string{"electron"}, nil, []string{"electron"}},
	{"Tauri", techFramework, []string{"tauri"}, []string{"tauri.conf.json"}, []string{"@tauri-apps/"}},
	{"Unity", techFramework, []string{"unity"}, nil, nil},
	{"TypeScript", techFramework, []string{"typescript", "ts"}, []string{"tsconfig.json"}, []string{"typescript"}},
	{"Streamlit", techFramework, []string{"streamlit"}, nil, []string{"streamlit"}},

	{"Tailwind CSS", techLibrary, []string{"tailwind", "tailwindcss", "tailwind css"}, []string{"tailwind.config"}, []string{"tailwindcss", "@tailwindcss/"}},
	{"shadcn/ui", techLibrary, []string{"shadcn", "shadcn/ui", "shadcn-ui", "shadcn ui"}, []string{"components.json"}, []string{"shadcn"}},
	{"Mantine", techLibrary, []string{"mantine"}, nil, []string{"@mantine/"}},
	{"MUI", techLibrary, []string{"mui", "material ui", "material-ui"}, nil, []string{"@mui/"}},
	{"Chakra UI", techLibrary, []string{"chakra", "chakra ui", "chakra-ui"}, nil, []string{"@chakra-ui/"}},
	{"Ant Design", techLibrary, []string{"antd", "ant design"}, nil, []string{"antd"}},
	{"Element Plus", techLibrary, []string{"element plus", "element-plus"}, nil, []string{"element-plus"}},
	{"Vuetify", techLibrary, []string{"vuetify"}, nil, []string{"vuetify"}},
	{"Bootstrap", techLibrary, []string{"bootstrap"}, nil, []string{"bootstrap"}},
	{"Chart.js", techLibrary, []string{"chart.js", "chartjs"}, nil, []string{"chart.js"}},
	{"Recharts", techLibrary, []string{"recharts"}, nil, []string{"recharts"}},
	{"ECharts", techLibrary, []string{"echarts", "apache echarts"}, nil, []string{"echarts"}},
	{"D3", techLibrary, []string{"d3", "d3.js"}, nil, []string{"d3"}},
	{"Lucide", techLibrary, []string{"lucide", "lucide icons", "lucide-react", "lucid icon", "lucid icons", "lucide icon"}, nil, []string{"lucide-react", "lucide"}},
	{"Radix UI", techLibrary, []string{"radix", "radix ui"}, nil, []string{"@radix-ui/"}},
	{"Redux", techLibrary, []string{"redux", "redux toolkit"}, nil, []string{"redux", "@reduxjs/"}},
	{"Zustand", techLibrary, []string{"zustand"}, nil, []string{"zustand"}},
	{"Pinia", techLibrary, []string{"pinia"}, nil, []string{"pinia"}},
	{"Riverpod", techLibrary, []string{"riverpod", "flutter_riverpod"}, nil, []string{"flutter_riverpod", "riverpod"}},
	{"TanStack Query", techLibrary, []string{"tanstack query", "react query", "react-query"}, nil, []string{"@tanstack/react-query"}},
	{"tRPC", techLibrary, []string{"trpc"}, nil, []string{"@trpc/"}},
	{"Prisma", techLibrary, []string{"prisma"}, []string{"schema.prisma"}, []string{"prisma", "@prisma/"}},
	{"Drizzle ORM", techLibrary, []string{"drizzle", "drizzle orm"}, []string{"drizzle.config"}, []string{"drizzle-orm"}},
	{"SQLAlchemy", techLibrary, []string{"sqlalchemy"}, nil, []string{"sqlalchemy"}},
	{"TypeORM", techLibrary, []string{"typeorm"}, nil, []string{"typeorm"}},
	{"Sequelize", techLibrary, []string{"sequelize"}, nil, []string{"sequelize"}},
	{"Mongoose", techLibrary, []string{"mongoose"}, nil, []string{"mongoose"}},
	{"LangChain", techLibrary, []string{"langchain"}, nil, []string{"langchain", "@langchain/"}},

	{"PostgreSQL", techDatabase, []string{"postgres", "postgresql", "postgre", "postgress"}, nil, nil},
	{"MySQL", techDatabase, []string{"mysql"}, nil, nil},
	{"MariaDB", techDatabase, []string{"mariadb"}, nil, nil},
	{"SQLite", techDatabase, []string{"sqlite", "sqlite3"}, nil, nil},
	{"MongoDB", techDatabase, []string{"mongodb", "mongo"}, nil, nil},
	{"Redis", techDatabase, []string{"redis"}, nil, nil},
	{"SQL Server", techDatabase, []string{"sql server", "mssql"}, nil, nil},
	{"Supabase", techDatabase, []string{"supabase"}, []string{"supabase"}, []string{"@supabase/"}},
	{"Firebase", techDatabase, []string{"firebase"}, []string{"firebase.json"}, []string{"firebase", "firebase-admin"}},
	{"Firestore", techDatabase, []string{"firestore"}, nil, nil},
	{"DynamoDB", techDatabase, []string{"dynamodb"}, nil, nil},
	{"Elasticsearch", techDatabase, []string{"elasticsearch"}, nil, nil},
	{"ClickHouse", techDatabase, []string{"clickhouse"}, nil, nil},
	{"PocketBase", techDatabase, []string{"pocketbase"}, nil, nil},

	{"Vercel", techHosting, []string{"vercel"}, []string{"vercel.json"}, nil},
	{"Netlify", techHosting, []string{"netlify"}, []string{"netlify.toml"}, nil},
	{"Railway", techHosting, []string{"railway"}, []string{"railway.json", "railway.toml"}, nil},
	{"Render", techHosting, []string{"render.com"}, []string{"render.yaml"}, nil},
	{"Fly.io", techHosting, []string{"fly.io"}, []string{"fly.toml"}, nil},
	{"Heroku", techHosting, []string{"heroku"}, []string{"Procfile"}, nil},
	{"Cloudflare Pages", techHosting, []string{"cloudflare pages"}, nil, nil},
	{"Cloudflare Workers", techHosting, []string{"cloudflare workers"}, []string{"wrangler.toml"}, nil},
	{"GitHub Pages", techHosting, []string{"github pages", "gh-pages"}, nil, nil},
	{"Azure", techHosting, []string{"azure"}, nil, nil},
	{"AWS", techHosting, []string{"aws"}, nil, nil},
	{"Google Cloud", techHosting, []string{"google cloud", "gcp"}, nil, nil},
	{"DigitalOcean", techHosting, []string{"digitalocean", "digital ocean"}, nil, nil},
}

// techByAlias finds a tech by a spelling, lower case.
var techByAlias = func() map[string]*tech {
	m := map[string]*tech{}
	for i := range techs {
		for _, a := range techs[i].aliases {
			m[a] = &techs[i]
		}
	}
	return m
}()

// namedTech is one well-known name found in a clause: the tech and the version said with it.
type namedTech struct {
	t       *tech
	version string
}

// display is the name as a memory writes it: "Next.js 15".
func (n namedTech) display() string {
	if n.version != "" {
		return n.t.name + " " + n.version
	}
	return n.t.name
}

var (
	// nameToken is a word a name can be made of: latin letters, digits and the joiners names use
	// (next.js, shadcn/ui, flutter_riverpod, fly.io). A token glued to CJK text is still one.
	nameToken = lazyre.New(`[A-Za-z][A-Za-z0-9]*(?:[._/-][A-Za-z0-9]+)*`)
	// gluedVersion is a name with its major version written onto it: "vue3", "nuxt3", "angular17".
	gluedVersion = lazyre.New(`^([a-z][a-z.]*[a-z])(\d{1,2})$`)
	// versionAfter is the version said right after a name: "Next.js 15", "Vue 3.4", "vue@3".
	versionAfter = lazyre.New(`^(?:\s*|@)v?(\d{1,3}(?:\.\d{1,3}){0,2})(?:[^\w.]|$)`)
)

// techNames returns the well-known names in s, in order, each once. A name that is part of a
// longer token ("reactive", "express-session", "next.config.js") is none, and so is a name
// inside a code span, a URL or a path: that is the code or the page of the moment.
func techNames(s string) []namedTech {
	var out []namedTech
	for _, n := range eachTechName(s) {
		if !slices.ContainsFunc(out, func(o namedTech) bool { return o.t == n.t }) {
			out = append(out, n)
		}
	}
	return out
}

// eachTechName yields where each well-known name of s starts and ends, its version with it (said
// after it, "Next.js 15", or written onto it, "vue3"), and the name.
func eachTechName(s string) iter.Seq2[[2]int, namedTech] {
	return func(yield func([2]int, namedTech) bool) {
		locs := nameToken.FindAllStringIndex(s, -1)
		for i := 0; i < len(locs); i++ {
			start, end := locs[i][0], locs[i][1]
			if inCodeOrPath(s, start, end) {
				continue
			}
			var found *tech
			// a name of two words first: "react native", "tailwind css", "sql server"
			if i+1 < len(locs) && strings.TrimSpace(s[end:locs[i+1][0]]) == "" && locs[i+1][0]-end <= 2 {
				if t, ok := techByAlias[strings.ToLower(s[start:end]+" "+s[locs[i+1][0]:locs[i+1][1]])]; ok {
					found, end = t, locs[i+1][1]
					i++
				}
			}
			glued := "" // the version written onto the name: "vue3", "nuxt3"
			if found == nil {
				word := strings.ToLower(s[start:end])
				t, ok := techByAlias[word]
				if m := gluedVersion.FindStringSubmatch(word); !ok && m != nil {
					t, ok = techByAlias[m[1]]
					glued = m[2]
				}
				if !ok {
					continue
				}
				found = t
			}
			n := namedTech{t: found, version: glued}
			if m := versionAfter.FindStringSubmatchIndex(s[end:]); m != nil && glued == "" {
				n.version = s[end+m[2] : end+m[3]]
				end += m[3]
			}
			if !yield([2]int{start, end}, n) {
				return
			}
		}
	}
}

// inCodeOrPath reports whether s[start:end] is inside a code span, or joined to a URL or a path
// ("https://sdk.vercel.ai/…", "src/react/", "@supabase/ssr").
func inCodeOrPath(s string, start, end int) bool {
	if strings.Count(s[:start], "`")%2 == 1 {
		return true
	}
	before, after := "", ""
	if start > 0 {
		before = s[start-1 : start]
	}
	if end < len(s) {
		after = s[end : end+1]
	}
	if before == "/" || before == "@" || before == "." || before == "_" || before == "-" {
		return true
	}
	if after == "/" || after == "_" || after == "-" || after == "@" && !versionAfter.MatchString(s[end:]) {
		return true
	}
	if after == "." && end+1 < len(s) && isLetter(rune(s[end+1])) {
		return true // "vercel.app", "react.dev"
	}
	return false
}

// role is what part of the project a clause says uses the names.
type role string

const (
	roleProject  role = "project"
	roleFrontend role = "frontend"
	roleBackend  role = "backend"
	roleDatabase role = "database"
)

// roleWords are the words of each role in the languages the rules read.
var roleWords = []struct {
	role role
	re   *lazyre.Regexp
}{
	{roleFrontend, lazyre.New(`(?i)front-?end|前端|前台|фронт(?:енд)?|front|giao diện|フロントエンド|프론트엔드`)},
	{roleBackend, lazyre.New(`(?i)back-?end|后端|後端|服务端|服務端|бэк(?:енд)?|бек(?:енд)?|back|サーバーサイド|バックエンド|백엔드`)},
	{roleDatabase, lazyre.New(`(?i)database|\bdb\b|数据库|數據庫|数据层|база данных|базы данных|\bбд\b|base de donn[ée]es|base de datos|banco de dados|datenbank|cơ sở dữ liệu|データベース|데이터베이스`)},
}

// usesShapes are the shapes of a clause that says who uses the names, by language: the subject
// (the project, a part of it, "we") and the verb, at the start of the clause.
var usesShapes = []usesShape{
	{lang: "en", re: lazyre.New(`(?i)^(?:(?:this|the|my)\s+)?(?:project|app|application|site|website|web\s?app|blog|repo|codebase|stack|frontend|front-end|backend|back-end|api|server|client|ui|database|db)(?:'s\s+\w+)?\s+(?:uses|is using|is built (?:with|on)|is written (?:in|with)|is based on|runs on|is powered by|is made with|is|are)\s`)},
	{lang: "en", re: lazyre.New(`(?i)^(?:this|it)(?:'s|\s+is)\s+an?\s+(?:[\w.+/-]+\s+){1,4}?(?:project|app|application|site|website|repo|codebase|monorepo)(?:$|\s+(?:using|with|built with|on|that uses|which uses)\s+)`)},
	{lang: "en", weak: true, re: lazyre.New(`(?i)^i(?:'m|\s+am)\s+(?:using|building (?:it )?with)\s|^i\s+(?:want|would like|'d like)\s+to\s+use\s`)}, // "we use" is forms.go's
	{lang: "zh", re: lazyre.New(`^(?:本|该|該|这个|這個|当前|當前|我们的|我們的|我的|整个|整個)?(?:(?:项目|項目|工程|应用|應用|网站|網站|博客|系统|系統|小程序)(?:的)?(?:前端|后端|後端|服务端|服務端|前台|数据库|數據庫)?|前端|后端|後端|服务端|服務端|前台|数据库|數據庫)(?:目前|现在|現在|主要|都|统一|統一|已经|已經)?(?:是使用|是基于|是基於|是用|使用的是|用的是|使用了|用了|使用|采用|採用|基于|基於|用|是)\s*`)},
	{lang: "zh", re: lazyre.New(`^(?:我们|我們)(?:的项目|的項目)?(?:目前|现在|現在|主要|都|一直)?(?:使用|采用|採用|用的是|在用)\s*`)},
	{lang: "zh", weak: true, re: lazyre.New(`^我(?:现在|現在|目前)?(?:想|想要|希望|打算)?(?:使用|用|在用)\s*`)},
	{lang: "ru", re: lazyre.New(`(?i)^(?:(?:наш|мой|этот|в этом|в нашем)\s+)?(?:проект[еа]?|приложени[ея]|сайт[еа]?|фронт(?:енд)?[еа]?|бэк(?:енд)?[еа]?|бек(?:енд)?[еа]?|база данных|бд)\s+(?:использует|используется|используются|написан(?:о|а)? на|сделан(?:о|а)? на|построен(?:о|а)? на|работает на|на)\s`)},
	{lang: "ru", re: lazyre.New(`(?i)^(?:у нас|мы используем|мы пишем на|используем)\s`)},
	{lang: "ru", weak: true, re: lazyre.New(`(?i)^я\s+(?:хочу\s+)?(?:использую|использовать)\s`)},
	{lang: "fr", re: lazyre.New(`(?i)^(?:(?:le|la|l'|ce|cette|notre|mon|ma)\s*)?(?:projet|site|app|appli|application|blog|front|frontend|front-end|back|backend|back-end|base de données)\s+(?:utilise|est (?:fait|codé|développé|écrit|construit|basé)e? (?:en|avec|sur)|tourne (?:sous|avec|sur))\s`)},
	{lang: "fr", re: lazyre.New(`(?i)^(?:on utilise|nous utilisons)\s`)},
	{lang: "es", re: lazyre.New(`(?i)^(?:(?:el|la|este|esta|nuestro|nuestra|mi)\s+)?(?:proyecto|sitio|app|aplicación|blog|frontend|front|backend|back|base de datos)\s+(?:usa|utiliza|está (?:hecho|hecha|construido|construida|desarrollado|desarrollada|escrito|escrita) (?:con|en))\s`)},
	{lang: "es", re: lazyre.New(`(?i)^(?:ya\s+|también\s+)?(?:usamos|utilizamos|estamos usando)\s`)},
	{lang: "pt", re: lazyre.New(`(?i)^(?:(?:o|a|este|esta|nosso|nossa|meu|minha)\s+)?(?:projeto|site|app|aplicação|blog|frontend|backend|banco de dados)\s+(?:usa|utiliza|é feit[oa] (?:com|em))\s`)},
	{lang: "pt", re: lazyre.New(`(?i)^(?:usamos|utilizamos|estamos usando)\s`)},
	{lang: "it", re: lazyre.New(`(?i)^(?:(?:il|lo|la|l'|questo|questa|nostro|nostra|mio|mia)\s*)?(?:progetto|sito|app|applicazione|blog|frontend|backend|database)\s+(?:usa|utilizza|è (?:fatt|scritt|sviluppat|costruit)[oa] (?:con|in))\s`)},
	{lang: "it", re: lazyre.New(`(?i)^(?:usiamo|utilizziamo)\s`)},
	{lang: "de", re: lazyre.New(`(?i)^(?:(?:das|dieses|unser|mein|die|unsere|meine)\s+)?(?:projekt|app|anwendung|seite|website|blog|frontend|backend|datenbank)\s+(?:verwendet|nutzt|benutzt|basiert auf|läuft (?:auf|mit)|ist (?:mit|in) \S+ (?:gebaut|geschrieben))\s`)},
	{lang: "de", re: lazyre.New(`(?i)^wir\s+(?:verwenden|nutzen|benutzen|setzen auf)\s`)},
	{lang: "nl", re: lazyre.New(`(?i)^(?:(?:het|dit|ons|onze|mijn|de)\s+)?(?:project|app|applicatie|site|website|blog|frontend|backend|database)\s+(?:gebruikt|draait op|is gebouwd (?:met|in|op))\s`)},
	{lang: "nl", re: lazyre.New(`(?i)^(?:we|wij)\s+gebruiken\s`)},
	{lang: "vi", re: lazyre.New(`(?i)^(?:dự án|project|ứng dụng|app|trang web|website|frontend|backend|cơ sở dữ liệu)(?:\s+(?:này|của (?:tôi|mình|chúng tôi)))?\s+(?:dùng|sử dụng|xài|được (?:viết|xây dựng|làm) (?:bằng|với))\s`)},
	{lang: "vi", re: lazyre.New(`(?i)^(?:chúng tôi|chúng mình|bọn mình|team mình)\s+(?:đang\s+)?(?:dùng|sử dụng|xài)\s`)},
	{lang: "vi", weak: true, re: lazyre.New(`(?i)^(?:tôi|mình|em)\s+(?:đang\s+|muốn\s+)?(?:dùng|sử dụng|xài)\s`)},
	{lang: "ja", re: lazyre.New(`^(?:この|本)?(?:プロジェクト|アプリ|サイト|リポジトリ|フロントエンド|バックエンド|データベース)(?:は|では)\s*`)},
	// Japanese leaves the subject out and ends with the verb: "TypeScriptを使用します",
	// "インフラの構成管理はterraformとLambrollを使用します"; asked for ("Next.jsを使用してください"),
	// it is kept as a set-up request is, once the agent's calls confirm it.
	{lang: "ja", re: lazyre.New(`^(?:[^、。\s]{1,16}(?:は|には|では))?\s*(?:[\w.+#/-]+\s*(?:と|、|,|\+)?\s*)+(?:を|で)(?:使用します|使います|採用します|使用しています|使っています)$`)},
	{lang: "ja", weak: true, re: lazyre.New(`^(?:[^、。\s]{1,16}(?:は|には|では))?\s*(?:[\w.+#/-]+\s*(?:と|、|,|\+)?\s*)+(?:を|で)(?:使用してください|使ってください|お願いします)$`)},
}

// usesShape is a shape of a clause that says who uses the names. weak marks the person's "I'm
// using", "I want to use": kept only where the agent's calls confirm it. noun marks a shape that
// says what kind of project it is ("I'm building a Next.js app with Supabase", "这是一个基于Vue3
// 的项目"): the clause must name the project, not a piece of the day's work.
type usesShape struct {
	lang       string
	weak, noun bool
	re         *lazyre.Regexp
}

// kindShapes are the shapes that say what kind of project it is, and what it is made with.
var kindShapes = []usesShape{
	{lang: "en", noun: true, re: lazyre.New(`(?i)^(?:i|we)(?:'m|'re|m|\s+am|\s+are)\s+(?:building|making|developing|writing|working on)\s+an?\s+`)},
	{lang: "zh", noun: true, re: lazyre.New(`^(?:这是|這是|我(?:正在|在)?(?:开发|開發|做|写|寫|搭建)|我们(?:正在|在)?(?:开发|開發|做))(?:一个|一個)?(?:基于|基於|使用|用)?\s*`)},
	{lang: "ru", re: lazyre.New(`(?i)^(?:это|у меня|у нас)\s+(?:(?:мой|наш|небольшой|новый)\s+)?(?:проект|приложение|сайт)\s+на\s`)},
	{lang: "fr", re: lazyre.New(`(?i)^(?:c'est|j'ai|on a|nous avons)\s+une?\s+(?:projet|site|app|appli|application)\s+(?:(?:en|avec|sous)\s+)?`)},
	{lang: "es", re: lazyre.New(`(?i)^(?:es|tengo|tenemos)\s+una?\s+(?:proyecto|sitio|app|aplicaci[oó]n)\s+(?:(?:de|en|con)\s+)?`)},
	{lang: "pt", re: lazyre.New(`(?i)^(?:é|tenho|temos)\s+uma?\s+(?:projeto|site|app|aplicação)\s+(?:(?:de|em|com)\s+)?`)},
	{lang: "it", re: lazyre.New(`(?i)^(?:è|ho|abbiamo)\s+un[oa]?\s+(?:progetto|sito|app|applicazione)\s+(?:(?:in|con|di)\s+)?`)},
	{lang: "de", re: lazyre.New(`(?i)^(?:das ist|es ist|ich habe|wir haben)\s+eine?\s+(?:projekt|app|anwendung|seite|website)\s+(?:mit|in)\s`)},
	{lang: "nl", re: lazyre.New(`(?i)^(?:dit is|het is|ik heb|we hebben)\s+een\s+(?:project|app|applicatie|site|website)\s+(?:met|in)\s`)},
	{lang: "ja", re: lazyre.New(`^これは\s*`)},
	{lang: "vi", re: lazyre.New(`(?i)^(?:đây là|tôi có|mình có|chúng tôi có)\s+(?:một\s+)?(?:dự án|project|ứng dụng|app|trang web|website)\s+(?:(?:dùng|sử dụng|viết bằng|bằng)\s+)?`)},
}

// setupShapes are the shapes of a request that sets the project up with the names ("setup
// project theo hướng của Prisma + Express + TS Starter", "create a new app with FastAPI and
// SQLAlchemy", "创建一个 Next.js + Supabase 项目"): what it will be built with, kept, as a weak
// statement is, only where the agent's calls then installed or touched what it names.
var setupShapes = []usesShape{
	{lang: "en", weak: true, re: lazyre.New(`(?i)^(?:please\s+)?(?:set\s?up|create|scaffold|init(?:iali[sz]e)?|bootstrap|start)\s+(?:me\s+)?(?:(?:a|an|the|my)\s+)?(?:new\s+)?(?:project|app|application|site|website|web\s?app|api|backend|service|server)\s+(?:with|using|on|based on)\s`)},
	{lang: "en", weak: true, noun: true, re: lazyre.New(`(?i)^(?:please\s+)?(?:set\s?up|create|scaffold|init(?:iali[sz]e)?|bootstrap)\s+(?:me\s+)?(?:a|an|the|my)\s+(?:new\s+)?`)},
	{lang: "vi", weak: true, re: lazyre.New(`(?i)^(?:hãy\s+|giúp (?:tôi|mình|em)\s+)?(?:setup|set up|tạo|khởi tạo|dựng)\s+(?:(?:một|1)\s+)?(?:dự án|project|ứng dụng|app|trang web|website|api|backend|service)(?:\s+mới)?\s+(?:theo hướng(?:\s+của)?|theo|với|dùng|sử dụng|bằng)\s`)},
	{lang: "zh", weak: true, noun: true, re: lazyre.New(`^(?:请|請|帮我|幫我)?(?:创建|創建|新建|搭建|初始化|建立)(?:一个|一個)?(?:新的)?(?:基于|基於|使用|用)?\s*`)},
	{lang: "es", weak: true, re: lazyre.New(`(?i)^(?:crea|créame|crear|configura|inicializa|monta)\s+(?:(?:un|una|el|la|mi)\s+)?(?:nuevo\s+|nueva\s+)?(?:proyecto|app|aplicaci[oó]n|sitio|api|backend)\s+(?:con|en|usando)\s`)},
	{lang: "pt", weak: true, re: lazyre.New(`(?i)^(?:crie|cria|criar|configure|inicialize|monte)\s+(?:(?:um|uma|o|a|meu|minha)\s+)?(?:novo\s+|nova\s+)?(?:projeto|app|aplicação|site|api|backend)\s+(?:com|em|usando)\s`)},
	{lang: "fr", weak: true, re: lazyre.New(`(?i)^(?:crée|créer|créez|initialise|monte|configure)\s+(?:(?:un|une|le|la|mon|ma)\s+)?(?:nouveau\s+|nouvelle\s+)?(?:projet|app|appli|application|site|api|backend)\s+(?:avec|en|sous|utilisant)\s`)},
	{lang: "de", weak: true, re: lazyre.New(`(?i)^(?:erstelle|erstell|richte|initialisiere|baue)\s+(?:(?:ein|eine|einen|mein|meine)\s+)?(?:neues\s+|neue\s+)?(?:projekt|app|anwendung|seite|website|api|backend)\s+(?:mit|in|auf)\s`)},
}

// allUsesShapes are the shapes usesLesson reads, and startsStatement looks for.
var allUsesShapes = slices.Concat(usesShapes, kindShapes, setupShapes)

// projectNoun is a word for the project itself: what a shape of kindShapes must name.
var projectNoun = lazyre.New(`(?i)\b(?:app|application|project|site|website|web\s?app|saas|platform|monorepo|blog)\b|项目|項目|应用|應用|网站|網站|小程序|博客`)

// deployShapes are the shapes of a clause that says where the project is deployed, by language;
// the hosting platform's name is looked for after the shape starts.
var deployShapes = []struct {
	lang string
	re   *lazyre.Regexp
}{
	{"en", lazyre.New(`(?i)^(?:(?:this|the|our|my)\s+)?(?:project|app|application|site|website|web\s?app|blog|api|frontend|front-end|backend|back-end|server|service)(?:\s+and\s+(?:its|the|our)\s+[\w ]{1,30}?)?\s+(?:is|are|gets|get)\s+(?:already\s+)?(?:deployed|hosted|running|live)\s+(?:on|to|at|in|with)\s`)},
	{"en", lazyre.New(`(?i)^we\s+(?:deploy|host)\s+(?:it\s+|the\s+\w+\s+)?(?:on|to|at|with)\s|^it(?:'s|\s+is)\s+(?:deployed|hosted)\s+(?:on|to|at)\s`)},
	{"zh", lazyre.New(`^(?:本|该|該|这个|這個|当前|當前|我们的|我們的|我的)?(?:项目|項目|工程|应用|應用|网站|網站|博客|前端|后端|後端|服务|服務|系统|系統)(?:已经|已經|已|目前|现在|現在)?(?:用|通过|通過|在|部署在|部署到|托管在|託管在|放在)`)},
	{"ru", lazyre.New(`(?i)^(?:(?:наш|мой|этот)\s+)?(?:проект|приложение|сайт|фронт(?:енд)?|бэк(?:енд)?|бек(?:енд)?)\s+(?:уже\s+)?(?:развернут|развёрнут|задеплоен|хостится|размещ[её]н|работает)\s+на\s`)},
	{"fr", lazyre.New(`(?i)^(?:(?:le|la|l'|ce|cette|notre|mon|ma)\s*)?(?:projet|site|app|appli|application|blog|api|front|frontend|back|backend)\s+(?:est|tourne)\s+(?:déjà\s+)?(?:déployée?|hébergée?|en ligne)?\s*(?:sur|chez)\s`)},
	{"es", lazyre.New(`(?i)^(?:(?:el|la|a|este|esta|nuestro|nuestra|mi)\s+)?(?:proyecto|sitio|app|aplicaci[oó]n|blog|api|frontend|backend)\s+(?:ya\s+)?(?:est[aá]|corre)\s+(?:ya\s+)?(?:(?:desplegad[oa]|alojad[oa]|hospedad[oa]|publicad[oa])\s+)?en\s`)},
	{"pt", lazyre.New(`(?i)^(?:(?:o|a|este|esta|nosso|nossa|meu|minha)\s+)?(?:projeto|site|app|aplicação|blog|api|frontend|backend)\s+(?:está|roda)\s+(?:implantad[oa]|hospedad[oa]|publicad[oa])\s+(?:em|no|na)\s`)},
	{"it", lazyre.New(`(?i)^(?:(?:il|lo|la|l'|questo|questa|nostro|nostra|mio|mia)\s*)?(?:progetto|sito|app|applicazione|blog|api|frontend|backend)\s+(?:è|gira)\s+(?:già\s+)?(?:deployat[oa]|ospitat[oa]|pubblicat[oa]|in produzione)\s+su\s`)},
	{"de", lazyre.New(`(?i)^(?:(?:das|dieses|unser|mein|die|unsere|meine)\s+)?(?:projekt|app|anwendung|seite|website|blog|api|frontend|backend)\s+(?:ist|läuft|wird)\s+(?:auf|bei)\s`)},
	{"nl", lazyre.New(`(?i)^(?:(?:het|dit|ons|onze|mijn|de)\s+)?(?:project|app|applicatie|site|website|blog|api|frontend|backend)\s+(?:staat|draait|is gehost|wordt gehost)\s+(?:op|bij)\s`)},
	{"vi", lazyre.New(`(?i)^(?:dự án|project|ứng dụng|app|trang web|website|frontend|backend)(?:\s+(?:này|của (?:tôi|mình)))?\s+(?:đã\s+|đang\s+|được\s+)*(?:deploy|triển khai|host|chạy)\s+(?:trên|lên|ở)\s`)},
}

// deployVerb is the verb a Chinese deploy clause needs once its subject named the platform:
// "本项目已经用vercel部署过" (the platform comes before the verb).
var deployVerb = lazyre.New(`部署|托管|託管|上线|上線`)

// saysFails is a clause that says what fails: the names are where the error is, not news of the
// stack ("数据库使用Supabase的时候报错", "У нас ошибка в React").
var saysFails = lazyre.New(`(?i)` +
	`\b(?:errors?|fails?|failing|failed|broken|bugs?|crash\p{L}*|issues?|problems?|exceptions?|warnings?)\b|错误|錯誤|报错|報錯|问题|問題|异常|異常|失败|失敗|(?:^|[^\p{L}])(?:ошибк\p{L}*|баг\p{L}*|проблем\p{L}*|падает|erreurs?|bug|plante|errores?|falla\p{L}*|fallo|erros?|falha\p{L}*|errore|errori|fehler\p{L}*|fout\p{L}*|lỗi)(?:[^\p{L}]|$)|エラー`)

// notAStatement is a clause that asks, wants, compares, replaces, denies or adds the thing for
// the first time, in the languages the rules read: none states what the project has.
var notAStatement = lazyre.New(`(?i)` +
	// asks, wants, plans
	`\b(?:how|why|what|which|whether|should|could|would|can i|can we|want to|wanna|need to|needs to|going to|plan to|planning|let's|lets|try|trying|tried|if|when|maybe|perhaps|instead|rather|switch|migrat\p{L}*|replac\p{L}*|mov(?:e|ed|ing) (?:to|from|away)|upgrad\p{L}*|convert\p{L}*|port(?:ed|ing)? to|compar\p{L}*|versus|vs|or|not|no longer|never|without|n't|add|adding|install|installing|integrat\p{L}*|set up|setting up|implement\p{L}*|create|creating|generate|build a|make a|use it to|learn\p{L}*|tutorial|example)\b|` +
	// Chinese
	`如何|怎么|怎麼|怎样|怎樣|为什么|為什麼|是否|能否|可以吗|吗|嗎|呢|想|希望|打算|准备|準備|需要|要不要|还是|還是|或者|或是|对比|對比|比较|比較|替换|替換|换成|換成|改用|改成|改为|改為|迁移|遷移|升级|升級|切换|切換|不是|不用|不要|没有|沒有|没用|别|別|添加|安装|安裝|集成|引入|接入|创建|創建|实现|實現|帮我|幫我|请|請|生成|编写|編寫|如果|假如|学习|學習|教程|` +
	// Russian
	`(?:^|[^\p{L}])(?:как|почему|зачем|или|вместо|заменить|замени|перейти|перейдем|мигр\p{L}*|обнови\p{L}*|сравн\p{L}*|не|нет|без|добавь\p{L}*|добавить|установи\p{L}*|создай|создать|сделай|сделать|давай\p{L}*|нужно|надо|если|можно)(?:[^\p{L}]|$)|` +
	// French, Spanish, Portuguese, Italian
	`(?:^|[^\p{L}])(?:comment|pourquoi|ou|plutôt|remplacer|migrer|passer à|pas|sans|jamais|ajoute[rz]?|installe[rz]?|crée[rz]?|veux|voudrais|si|cómo|como|por qué|porque|en vez|en lugar|reemplaza\p{L}*|migrar|cambiar|sin|nunca|agrega\p{L}*|añade\p{L}*|instala\p{L}*|crea\p{L}*|quiero|queremos|vamos a|ou|em vez|substituir|sem|adiciona\p{L}*|instalar|quero|invece|sostituire|sostituisci|senza|aggiungi\p{L}*|installa\p{L}*|voglio|vorrei|perché|se|non|no|não|nicht|kein|keine|ohne|statt|anstatt|oder|wie|warum|ersetze\p{L}*|migrieren|umstellen|hinzufügen|installieren|füge|möchte|wollen|niet|geen|zonder|of|hoe|waarom|vervang\p{L}*|toevoegen|installeer|wil)(?:[^\p{L}]|$)|` +
	// Vietnamese, Japanese
	`(?:^|[^\p{L}])(?:không|chưa|đừng|hay|hoặc|thay|chuyển|nâng cấp|so sánh|thêm|cài|tạo|làm sao|tại sao|có nên|nếu)(?:[^\p{L}]|$)|` +
	`ですか|ますか|ません|ない|代わりに|移行|置き換え|追加|インストール|比較|たい`)

// movesOff is a sentence that changes what the project uses, in any of its clauses: a rewrite,
// a replacement, a migration, a comparison, a removal.
var movesOff = lazyre.New(`(?i)\b(?:rewrit\p{L}*|port(?:ed|ing)? (?:it |this )?to|convert\p{L}*|switch(?:es|ed|ing)? (?:it |this )?(?:to|from|over)|migrat(?:e|es|ed|ing)|migration (?:to|from|off)|replac\p{L}*|instead|rather than|mov(?:e|ing) (?:it |this )?(?:to|from|off)|vs|versus|compar\p{L}*|remov(?:e|ing) (?:it|them)|get rid|drop (?:it|them))\b|去掉|删掉|删除|移除|重写|重寫|改写|改寫|改用|换成|換成|换为|換為|替换|替換|迁移|遷移|对比|對比|比较|比較|(?:^|[^\p{L}])(?:перепи\p{L}*|замен\p{L}*|мигрир\p{L}*|убер\p{L}*|убра\p{L}*|удали\p{L}*|перейти|перейд\p{L}*|сравн\p{L}*|вместо|réécri\p{L}*|remplac\p{L}*|migrer|migré|migrons|au lieu|plutôt que|compar\p{L}*|reescrib\p{L}*|reemplaz\p{L}*|migrar|migramos|migrado|en vez de|en lugar de|reescrever|substitu\p{L}*|em vez de|riscriv\p{L}*|sostitu\p{L}*|invece di|umschreib\p{L}*|ersetz\p{L}*|umstell\p{L}*|statt|anstatt|herschrijv\p{L}*|vervang\p{L}*|in plaats van|viết lại|thay thế|chuyển sang|thay vì)(?:[^\p{L}]|$)|書き直|移行|置き換|代わりに`)

// weakNotAStatement is notAStatement for a weakly worded clause, which is a want by its shape:
// its wanting words are the shape's own.
var weakNotAStatement = lazyre.New(`(?i)\b(?:how|why|what|which|whether|should|could|instead|rather|switch|migrat\p{L}*|replac\p{L}*|upgrad\p{L}*|compar\p{L}*|versus|vs|or|not|never|without|n't|error|fails?|failing|broken|issue|problem|bug)\b|如何|怎么|为什么|是否|吗|还是|或者|对比|比较|替换|换成|改用|迁移|升级|不|没|别|报错|错误|(?:^|[^\p{L}])(?:как|почему|или|вместо|не|нет|без|ошибк\p{L}*|không|chưa|hay|hoặc|thay|lỗi|bị)(?:[^\p{L}]|$)`)

// leadNoise is what a person's line opens with before its sentence in an IDE chat: a slash
// command ("/Generate Cursor Rules"), the files and symbols they attached ("@theme", "@page.tsx").
var leadNoise = lazyre.New(`^(?:(?:/[A-Za-z][\w-]*(?:\s+[A-Z][\w-]*)*|@\S+)\s*)+`)

// stackClause cuts a sentence into clauses: at commas, semicolons and colons in any script, and
// at "but", "so", "and then" in several languages; not at the Chinese enumeration comma, which
// joins the names of one list.
var stackClause = lazyre.New(`[,;，；：]\s*|:\s+|\s+(?:but|and then|so|mais|pero|aber|maar|mas|ma|nhưng|но|а)\s+|但是|但|不过|不過|然后|然後|所以`)

// stackLessons returns what a user turn states about the project's stack, where it is deployed
// and which variables its config files set, each as a memory written from the names.
func stackLessons(text string, s *extract.Session, message int) []*lesson {
	var out []*lesson
	seen := map[string]bool{}
	add := func(n *lesson) {
		if n != nil && !seen[n.rule] {
			seen[n.rule] = true
			n.message = message
			out = append(out, n)
		}
	}
	var calls []string // the agent's tool lines, read once the first clause needs them
	toolLines := func() []string {
		if calls == nil {
			calls = agentToolLines(s)
		}
		return calls
	}
	for _, line := range proseLines(text) {
		for _, sentence := range splitLang(line) {
			st := tidy(sentence)
			if st == "" || len(st) > maxSentence || hasSecret(st) && len(envNames(st)) == 0 {
				continue
			}
			if movesOff.MatchString(st) {
				continue // "the project is Vue, rewrite it in React": what it uses is about to change
			}
			add(attachedLesson(st, s, message, toolLines))
			for _, c := range stackClause.Split(st, -1) {
				c = strings.TrimSpace(leadNoise.ReplaceAllString(strings.TrimSpace(c), ""))
				c = strings.TrimRight(c, "。.!！ ")
				if c == "" || isQuestion(c) || asksCJK(c) {
					continue
				}
				add(envLesson(c, s, message, toolLines))
				for _, part := range statementsOf(c) {
					add(deployLesson(part, s, message, toolLines))
					add(usesLesson(part, s, message, toolLines))
				}
			}
		}
	}
	return out
}

// conjunction joins two statements in one clause, or two names of one list.
var conjunction = lazyre.New(`(?i)\s+(?:and|y|e|et|und|en|и|và)\s+`)

// statementsOf cuts a clause where a second statement begins after a conjunction ("la
// aplicación ya está en Railway y ya usamos Postgres"); a conjunction inside a list of names
// ("Vue 3 and Pinia") cuts nothing.
func statementsOf(c string) []string {
	var out []string
	from := 0
	for _, loc := range conjunction.FindAllStringIndex(c, -1) {
		if startsStatement(c[loc[1]:]) {
			out = append(out, c[from:loc[0]])
			from = loc[1]
		}
	}
	return append(out, c[from:])
}

// startsStatement reports whether s opens with the shape of a statement of what the project
// uses or where it is deployed.
func startsStatement(s string) bool {
	for _, shape := range allUsesShapes {
		if shape.re.MatchString(s) {
			return true
		}
	}
	for _, shape := range deployShapes {
		if shape.re.MatchString(s) {
			return true
		}
	}
	return false
}

// usesLesson is the lesson of a clause that says the project, or a part of it, uses well-known
// names; nil when it says nothing of the kind.
func usesLesson(c string, s *extract.Session, message int, toolLines func() []string) *lesson {
	for _, shape := range allUsesShapes {
		loc := shape.re.FindStringIndex(c)
		if loc == nil {
			continue
		}
		names := techNames(c[loc[0]:])
		if len(names) == 0 || slices.ContainsFunc(names, func(n namedTech) bool { return n.t.kind == techHosting }) {
			return nil // "the app runs on Vercel" is where it is deployed
		}
		if saysFails.MatchString(c) || shape.weak && weakNotAStatement.MatchString(c) || !shape.weak && notAStatement.MatchString(c) {
			return nil
		}
		if shape.lang == "ja" && !jaUses.MatchString(c) {
			return nil
		}
		if shape.noun && !projectNoun.MatchString(c[loc[1]:]) {
			return nil // "I'm building a React component for the sidebar"
		}
		if !namesFill(c[loc[1]:]) {
			return nil
		}
		confirmed := confirmation(names, nil, toolLines())
		if shape.weak && confirmed == "" {
			return nil
		}
		rule := usesRule(roleOf(c[:loc[1]]), names)
		return stackLesson("stated what the project uses", shape.lang, rule, confirmed, s, message)
	}
	return nil
}

// jaUses is the verb a Japanese clause about the stack ends with.
var jaUses = lazyre.New(`(?:を|で)(?:使って(?:います|いる|る|ください)|使います|使用して(?:います|いる|ください)|使用します|採用します|お願いします|採用して(?:います|いる)|作られて(?:います|いる)|書かれて(?:います|いる))$|の(?:プロジェクト|アプリ)です$`)

// namesFill reports whether what follows the verb is the names themselves, joined as a list
// ("Next.js 15、shadcn、tailwind", "React.js + Mantine", "Vue 3 and Pinia"), with at most a word
// of their own beside the list's ("Lucide icons", "for the dashboard"): a clause that goes on to say more is a
// request that happens to name them ("the app uses React to render the chart of sales").
func namesFill(rest string) bool {
	words := 0
	for _, w := range strings.FieldsFunc(stripNames(rest), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if strings.ContainsFunc(w, isIdeograph) {
			if strings.ContainsFunc(listNouns.ReplaceAllString(w, ""), isIdeograph) {
				return false // "用 Vue 重写一下", "用 FastAPI 写一个接口": what to do with them
			}
			continue
		}
		if !listWords[strings.ToLower(w)] {
			words++
		}
	}
	return words <= 1
}

// listNouns are the words of the scripts written without spaces that a list of names is joined
// with or closed by ("Lucid icon", "等", "作为数据库", "の"): any other word after the names says
// what to do with them. The longer words come first, so that "です" is not read as "で".
var listNouns = lazyre.New(`(?:使って|使用して|採用して|作られて|書かれて)(?:います|いる)|使用します|使います|사용합니다|사용해요|プロジェクト|组件库|組件庫|数据库|數據庫|技术栈|技術棧|搭建的|アプリ|います|以及|图标|圖標|组件|組件|框架|作为|作為|版本|开发|開發|构建|構建|写的|寫的|项目|項目|应用|應用|です|和|与|與|及|跟|等|库|庫|的|了|と|や|の|で|を|과|와|를|을`)

// isIdeograph is a character of a script written without spaces between words.
func isIdeograph(r rune) bool {
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul)
}

// stripNames removes the well-known names of s and their versions.
func stripNames(s string) string {
	var b strings.Builder
	last := 0
	for at := range eachTechName(s) {
		b.WriteString(s[last:at[0]])
		last = at[1]
	}
	b.WriteString(s[last:])
	return b.String()
}

// listWords are the words a list of names is joined with, and the nouns said after a name
// ("Lucide icons", "the Supabase database"): none is more than the list.
var listWords = wordSet(`and with plus as for the a an our its of in on icons icon components ui css framework
	library database db orm router app version v starter template boilerplate et avec y con com e ed und mit en met và cùng với и с`)

// roleOf is the part of the project the subject of a clause names.
func roleOf(subject string) role {
	for _, r := range roleWords {
		if r.re.MatchString(subject) {
			return r.role
		}
	}
	return roleProject
}

// usesRule writes what a part of the project uses: "The database is Supabase.", "The frontend
// uses Next.js 15, shadcn/ui and Tailwind CSS."
func usesRule(r role, names []namedTech) string {
	var list []string
	for _, n := range names {
		list = append(list, n.display())
	}
	if r == roleDatabase && len(names) == 1 {
		return "The database is " + list[0] + "."
	}
	return "The " + string(r) + " uses " + andList(list) + "."
}

// andList joins words as prose: "a", "a and b", "a, b and c".
func andList(list []string) string {
	switch len(list) {
	case 0:
		return ""
	case 1:
		return list[0]
	}
	return strings.Join(list[:len(list)-1], ", ") + " and " + list[len(list)-1]
}

// hostPhrase names the project's deployment by its platform, which says where it is deployed
// whatever the clause goes on to say of it: "I'm not seeing other players on the netlify
// deploy", "the Vercel deployment".
var hostPhrase = lazyre.New(`(?i)(?:^|\s)(?:the|our|my)\s+([a-z][\w.]*(?:\s[a-z]\w*)?)\s+(?:deploy|deployment|instance|preview|production\s+site)(?:[^\w-]|$)`)

// hostPhraseNot is a clause about deployments in general, or another platform's.
var hostPhraseNot = lazyre.New(`(?i)\b(?:vs|versus|or|compar\w*|instead|switch\w*|migrat\w*|mov(?:e|ing) (?:to|from|away)|replac\w*|try|trying|tutorial|example|docs|documentation|if)\b|还是|或者|对比|比较|迁移|切换`)

// deployLesson is the lesson of a clause that says where the project is deployed.
func deployLesson(c string, s *extract.Session, message int, toolLines func() []string) *lesson {
	if m := hostPhrase.FindStringSubmatch(c); m != nil && !hostPhraseNot.MatchString(c) {
		if t := techByAlias[strings.ToLower(m[1])]; t != nil && t.kind == techHosting {
			host := []namedTech{{t: t}}
			rule := "The project is deployed on " + t.name + "."
			return stackLesson("named the project's deployment", "", rule, confirmation(host, nil, toolLines()), s, message)
		}
	}
	for _, shape := range deployShapes {
		loc := shape.re.FindStringIndex(c)
		if loc == nil {
			continue
		}
		var hosts []namedTech
		for _, n := range techNames(c[loc[0]:]) {
			if n.t.kind == techHosting {
				n.version = ""
				hosts = append(hosts, n)
			}
		}
		if len(hosts) != 1 || notAStatement.MatchString(c) || saysFails.MatchString(c) {
			return nil
		}
		if shape.lang == "zh" && !deployVerb.MatchString(c) {
			return nil
		}
		subject := "project"
		if r := roleOf(c[:loc[1]]); r == roleFrontend || r == roleBackend {
			subject = string(r)
		}
		rule := "The " + subject + " is deployed on " + hosts[0].display() + "."
		return stackLesson("stated where the project is deployed", shape.lang, rule, confirmation(hosts, nil, toolLines()), s, message)
	}
	return nil
}

var (
	// envName is an environment variable's name: upper case, with an underscore.
	envName = lazyre.New(`[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+`)
	// configFile is a file settings live in: .env and its variants, appsettings*.json, a config.*.
	configFile = lazyre.New(`(?i)(?:^|[^\w.-])((?:[\w-]+/)*(?:\.env(?:\.[\w-]+)*|appsettings(?:\.[\w-]+)*\.json|application(?:-[\w-]+)?\.(?:properties|ya?ml)|(?:[\w-]+\.)?config\.(?:json|ya?ml|toml|js|ts|mjs|cjs|ini)|settings\.(?:json|py|toml|ya?ml)|docker-compose(?:\.[\w-]+)?\.ya?ml|wrangler\.toml))(?:$|[^\w.])`)
	// envSet is a clause saying the variables are set, by the person or as they stand, in the
	// languages the rules read; an imperative ("add X to .env") is none.
	envSet = lazyre.New(`(?i)\b(?:i(?:'ve|\s+have)?|we(?:'ve|\s+have)?)\s+(?:already\s+|just\s+|also\s+)?(?:set|configured|added|put|defined|stored|placed)\b|\b(?:is|are)\s+(?:already\s+)?(?:set|defined|configured|stored|in|there|here)\b|\blives?\s+in\b|(?:已经|已經|已)(?:在)?.{0,40}?(?:配置|设置|設置|添加|写|寫|加|放|定义|定義)|(?:配置|设置|設置|写|寫|放|定义|定義)(?:在|到|于|於)|(?:^|[^\p{L}])(?:я\s+)?(?:добавил|прописал|указал|настроил|задал|прописан\p{L}*|указан\p{L}*|задан\p{L}*|лежит|лежат|находится|находятся|хранится|хранятся)(?:[^\p{L}]|$)|\bj'ai\s+(?:déjà\s+)?(?:ajouté|mis|défini|configuré|renseigné)|\b(?:est|sont)\s+(?:déjà\s+)?(?:défini|définis|configuré|configurés|dans)\b|\b(?:ya\s+)?(?:he|tengo)\s+(?:agregado|añadido|puesto|definido|configurado)\b|(?:^|[^\p{L}])(?:ya\s+)?(?:configuré|agregué|añadí|puse|definí)(?:[^\p{L}]|$)|\b(?:está|están)\s+(?:definid[oa]s?\s+)?en\b|\b(?:adicionei|coloquei|defini|configurei)\b|\bho\s+(?:già\s+)?(?:aggiunto|messo|definito|configurato|impostato)\b|\bich\s+habe\b.*\b(?:eingetragen|hinzugefügt|gesetzt|definiert|konfiguriert)\b|\b(?:ist|sind)\s+in\b|\b(?:steht|stehen)\s+(?:in|im)\b|\bik\s+heb\b.*\b(?:toegevoegd|gezet|ingesteld|gedefinieerd)\b|\b(?:staat|staan)\s+in\b|(?:^|[^\p{L}])(?:tôi|mình)\s+đã\s+(?:thêm|cấu hình|đặt|khai báo)(?:[^\p{L}]|$)|に(?:設定済み|設定しました|設定してあります|書いてあります|書きました|入っています|あります)|\b(?:nằm|có)\s+trong\b`)
	// envNot is a clause that says the variables are missing, asks for them or asks to add them.
	envNot = lazyre.New(`(?i)\b(?:not|no|missing|without|never|n't|add|create|set up|should|need|needs|how|why|what|whether|if)\b|^(?:please\s+)?put\b|ない|ません|^(?:hãy\s+)?thêm(?:[^\p{L}]|$)|不|没|沒|缺|需要|如何|怎么|请|請|帮我|幫我|吗|嗎|是否|(?:^|[^\p{L}])(?:не|нет|нужно|надо|добавь|как|pas|sans|ajoute|no|sin|agrega|añade|não|sem|adicione|non|senza|aggiungi|nicht|kein|ohne|füge|niet|geen|voeg|không|chưa|cần)(?:[^\p{L}]|$)`)
)

// envLesson is the lesson of a clause that says which environment variables a config file sets.
func envLesson(c string, s *extract.Session, message int, toolLines func() []string) *lesson {
	file := configFile.FindStringSubmatch(c)
	if file == nil || !envSet.MatchString(c) || envNot.MatchString(c) {
		return nil
	}
	vars := envNames(c)
	// a variable's value said in the clause is dropped with the rest of the clause; one of a
	// form that reads as a secret keeps the whole clause out
	if len(vars) == 0 || len(vars) > 6 || hasSecret(stripEnvNames(c)) {
		return nil
	}
	var quoted []string
	for _, v := range vars {
		quoted = append(quoted, "`"+v+"`")
	}
	verb := "is"
	if len(vars) > 1 {
		verb = "are"
	}
	rule := fmt.Sprintf("%s %s set in `%s`.", andList(quoted), verb, file[1])
	return stackLesson("stated where settings are kept", "", rule, confirmation(nil, []string{file[1]}, toolLines()), s, message)
}

// envNames are the environment variables' names in s, each once: whole words, not a part of
// a longer name ("MY_KEY" of "$MY_KEY_2" is none, "my_var" is no such name).
func envNames(s string) []string {
	var out []string
	for _, loc := range envName.FindAllStringIndex(s, -1) {
		if loc[0] > 0 && isNameByte(s[loc[0]-1]) || loc[1] < len(s) && isNameByte(s[loc[1]]) {
			continue
		}
		if v := s[loc[0]:loc[1]]; !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out
}

func isNameByte(b byte) bool { return isWordByte(b) && b < 0x80 || b >= 'A' && b <= 'Z' || b == '$' }

var (
	// attachedConfig is a sentence that opens with the config file the person attached (Cursor's
	// "@appsettings.Development.json") and says a setting is there: "the database url is there".
	// English only: the memory is written around the person's words for the setting.
	attachedConfig = lazyre.New(`(?i)^@(\S+)\s+(?:the\s+)?(?P<what>[\w .-]{2,40}?)\s+(?:is|are)\s+(?:there|here|in (?:it|there|this file))$`)
	// settingWord is what a setting a config file holds is called.
	settingWord = lazyre.New(`(?i)\b(?:url|uri|connection|string|key|keys|token|secret|password|host|port|dsn|endpoint|credentials?|settings?|config|variables?|env)\b`)
)

// attachedLesson is the lesson of a sentence that says a setting is in the config file the
// person attached: "@appsettings.Development.json the database url is there" → "The database
// URL is in `appsettings.Development.json`.".
func attachedLesson(st string, s *extract.Session, message int, toolLines func() []string) *lesson {
	m := attachedConfig.FindStringSubmatch(strings.TrimRight(st, ".!。 "))
	if m == nil {
		return nil
	}
	file := configFile.FindStringSubmatch(" " + m[1])
	what := strings.TrimSpace(named(attachedConfig, m, "what"))
	if file == nil || file[1] != strings.TrimRight(m[1], ".,;:") || !settingWord.MatchString(what) || saysFails.MatchString(what) ||
		notAStatement.MatchString(what) || taskSubjects.MatchString(what) || hasSecret(what) {
		return nil
	}
	words := strings.Fields(what)
	for i, w := range words {
		if acronyms[strings.ToLower(w)] {
			words[i] = strings.ToUpper(w)
		}
	}
	verb := "is"
	if last := strings.ToLower(words[len(words)-1]); strings.HasSuffix(last, "s") && !strings.HasSuffix(last, "ss") {
		verb = "are"
	}
	rule := fmt.Sprintf("The %s %s in `%s`.", strings.Join(words, " "), verb, file[1])
	return stackLesson("stated where settings are kept", "", rule, confirmation(nil, []string{file[1]}, toolLines()), s, message)
}

// acronyms are the words of a setting's name written in capitals.
var acronyms = map[string]bool{"url": true, "uri": true, "api": true, "dsn": true, "jwt": true, "smtp": true, "db": true}

// stripEnvNames removes the variables' names of s, so that a long name does not read as a
// secret.
func stripEnvNames(s string) string {
	return envName.ReplaceAllString(s, " ")
}

// stackLesson is a project fact written from the names a clause carries: confirmed says what the
// agent's calls in the session did with them, "" when nothing.
func stackLesson(label, lang, rule, confirmed string, s *extract.Session, message int) *lesson {
	n := &lesson{typ: memory.Project, label: label, rule: rule, sentence: rule, core: rule, session: s, message: message}
	if lang != "en" {
		n.lang = lang
	}
	if confirmed != "" {
		n.basis = provenance(n) + "; " + confirmed
	}
	n.facts = factsOf(rule)
	return n
}

// agentToolLines are the tool calls of a session that did not fail, as the transcript writes them
// ("Read: /work/app/.env.local", "Bash: npm install @mantine/core"); their results are not read.
// A call failed when an error names it (its Call id), when an error follows a call that names
// none, or when its line says so (a SpecStory export's "read_file: .env.local (failed: …)").
func agentToolLines(s *extract.Session) []string {
	failed := map[string]bool{}
	for _, t := range s.Turns {
		if t.Role == transcript.Tool && t.IsError && t.Call != "" {
			failed[t.Call] = true
		}
	}
	out := []string{}
	for i, t := range s.Turns {
		if t.Role != transcript.Tool || t.IsError {
			continue
		}
		name, arg, ok := strings.Cut(t.Text, ": ")
		if !ok || strings.ContainsAny(name, " \n") || arg == "" {
			continue
		}
		line := strings.SplitN(t.Text, "\n", 2)[0]
		next := i+1 < len(s.Turns) && s.Turns[i+1].Role == transcript.Tool && s.Turns[i+1].IsError && s.Turns[i+1].Call == ""
		if failed[t.Call] && t.Call != "" || t.Call == "" && next || strings.Contains(line, " (failed: ") {
			continue
		}
		out = append(out, line)
	}
	return out
}

// installCommand is a package manager installing packages.
var installCommand = lazyre.New(`(?i)(?:^|\s|&&|;)(?:npm|pnpm|yarn|bun|npx)\s+(?:install|i|add)\s|(?:pip3?|uv\s+pip|poetry|uv)\s+(?:install|add)\s|flutter\s+pub\s+add\s|dart\s+pub\s+add\s|composer\s+require\s|cargo\s+add\s`)

// confirmation says what the agent's calls in the session did with what a statement names: a
// file only the named tech has, one of its packages installed, or the config file named.
func confirmation(names []namedTech, files []string, lines []string) string {
	var touched, installed []string
	note := func(list *[]string, name string) {
		if q := "`" + name + "`"; !slices.Contains(*list, q) && len(*list) < 3 {
			*list = append(*list, q)
		}
	}
	for _, line := range lines {
		tool, arg, _ := strings.Cut(line, ": ")
		install := shellTool.MatchString(tool) && installCommand.MatchString(arg)
		for _, tok := range strings.Fields(arg) {
			tok = strings.Trim(tok, `"'`+"`,;()")
			base := path.Base(strings.ReplaceAll(tok, `\`, "/"))
			for _, f := range files {
				if base == path.Base(f) {
					note(&touched, path.Base(f))
				}
			}
			for _, n := range names {
				if hit := techFile(n.t, tok); hit != "" {
					note(&touched, hit)
				}
				if p := techPackage(n.t, tok); install && p != "" {
					note(&installed, p)
				}
			}
		}
	}
	var did []string
	if len(installed) > 0 {
		did = append(did, "installed "+andList(installed))
	}
	if len(touched) > 0 {
		did = append(did, "read or edited "+andList(touched))
	}
	if len(did) == 0 {
		return ""
	}
	return "the agent's calls in that session " + strings.Join(did, " and ")
}

// techFile is the file or directory of tok that only t has, "" when none.
func techFile(t *tech, tok string) string {
	for _, f := range t.files {
		for _, part := range strings.Split(strings.ReplaceAll(tok, `\`, "/"), "/") {
			if part == f || strings.HasPrefix(part, f+".") {
				return part
			}
		}
	}
	return ""
}

// techPackage is the package tok names when it is one of t's, "" when not.
func techPackage(t *tech, tok string) string {
	name := tok
	if i := strings.LastIndex(name, "@"); i > 0 {
		name = name[:i] // "next@15"
	}
	for _, p := range t.pkgs {
		if name == p || strings.HasSuffix(p, "/") && strings.HasPrefix(name, p) && len(name) > len(p) {
			return name
		}
	}
	return ""
}

// roleUses is a stack memory of the frontend or the backend: "The frontend uses Nuxt 3, Pinia and
// Tailwind CSS."
var roleUses = lazyre.New(`(?i)^the\s+(frontend|backend)\s+uses\s+(.+?)\.?$`)

// frameworkRelation is the framework a part of the project is written on, one at a time: a later
// "the frontend uses React and Mantine" replaces "the frontend uses Vue 3 and Pinia"; a
// statement that names no framework ("the frontend uses Zustand") has none, and replaces nothing.
func frameworkRelation(text string) *relation {
	m := roleUses.FindStringSubmatch(text)
	if m == nil {
		return nil
	}
	var frameworks []string
	for _, n := range techNames(m[2]) {
		if n.t.kind == techFramework {
			frameworks = append(frameworks, n.t.name)
		}
	}
	if len(frameworks) == 0 {
		return nil
	}
	return newRelation("framework", m[1], strings.Join(frameworks, " "))
}

// withoutRestated drops the stated facts (stated.go) a stack lesson of the same turn writes from
// its names ("This is a NestJS project" is kept once, as the names' memory), and the uses of a
// well-known name stated.go read, which are this file's to keep or leave.
func withoutRestated(stated, stack []*lesson) []*lesson {
	return slices.DeleteFunc(stated, func(n *lesson) bool {
		if (n.label == "stated "+string(statedTooling) || n.label == "stated "+string(statedEnvironment)) && len(techNames(n.rule)) > 0 && saysFails.MatchString(n.rule) {
			return true // a well-known name's use is this file's to read: "数据库使用Supabase的时候报错", "This is a Next.js app with a weird bug" say what fails
		}
		rule := strings.ToLower(n.rule)
		for _, k := range stack {
			for w := range k.facts.words {
				if _, common := stackCommon[w]; len(w) >= 4 && strings.Contains(rule, w) && !common {
					return true
				}
			}
		}
		return false
	})
}

// stackCommon are the words of every stack memory, which say nothing of which names it holds.
var stackCommon = newSet("project uses frontend backend database deployed")

// unsaid drops the stack lessons another lesson of the same turn already keeps ("remember: the
// database is Postgres", "we use Next.js and Supabase"): the person's flagged or ruled sentence
// says more than the names.
func unsaid(stack, others []*lesson) []*lesson {
	return slices.DeleteFunc(stack, func(k *lesson) bool {
		names, vars := techNames(k.rule), envNames(k.rule)
		return slices.ContainsFunc(others, func(o *lesson) bool {
			said := techNames(o.rule)
			return len(names)+len(vars) > 0 && !slices.ContainsFunc(names, func(n namedTech) bool {
				return !slices.ContainsFunc(said, func(m namedTech) bool { return m.t == n.t })
			}) && !slices.ContainsFunc(vars, func(v string) bool { return !slices.Contains(envNames(o.rule), v) })
		})
	})
}
