package offline

import (
	"strings"
	"testing"
)

// TestStatedFacts is the table of layout and environment facts the person states, in the
// languages the rules read, and of sentences that only look like them.
func TestStatedFacts(t *testing.T) {
	tests := []struct {
		text string
		want string // the memory's description, "" for none
	}{
		// where things are
		{"The integration tests are in tests/integration/.", "The integration tests are in tests/integration/"},
		{"Cron jobs are defined at src/cron/name.service.ts", "Cron jobs are defined at src/cron/name.service.ts"},
		{"Los tests deberían estar en una subcarpeta llamada test", "Los tests deberían estar en una subcarpeta llamada test"},
		{"配置文件在 config/ 下", "配置文件在 config/ 下"},
		{"实际逻辑还是在 switch/case 里散落", ""}, // a construct, not a place
		{"我存在API.md里面了", ""},                                                   // what the person did, not what lives there
		{"i need you to go inside docs/REPO_MAP.md and fill the repo map", ""}, // a request to the agent
		{"我的配置文件在 config/ 下", "我的配置文件在 config/ 下"},
		{"The retry logic is in try/catch blocks everywhere.", ""},
		{"另外在/home/ana/shop/DEPLOYMENT.md中补充前端部署部分", ""}, // also, in that file, add: a task
		{"De migraties staan in db/migrations/", "De migraties staan in db/migrations/"},
		{"Die Vorlagen liegen in templates/mail/", "Die Vorlagen liegen in templates/mail/"},
		{"Les traductions se trouvent dans locales/", "Les traductions se trouvent dans locales/"},
		{"テストは tests/ にあります", "テストは tests/ にあります"},
		{"Тесты лежат в tests/integration/", "Тесты лежат в tests/integration/"},
		{"Конфиг находится в файле config/app.toml", "Конфиг находится в файле config/app.toml"},
		{"Міграції зберігаються в db/migrations/", "Міграції зберігаються в db/migrations/"},
		{"Le traduzioni si trovano nella cartella locales/", "Le traduzioni si trovano nella cartella locales/"},
		{"Migracje są w katalogu db/migrations/", "Migracje są w katalogu db/migrations/"},
		{"Šablony jsou v adresáři templates/mail/", "Šablony jsou v adresáři templates/mail/"},
		{"Konfigurasi ada di folder config/", "Konfigurasi ada di folder config/"},
		{"Testler tests/ klasöründe", "Testler tests/ klasöründe"},
		{"Ayarlar config.yaml'da", "Ayarlar config.yaml'da"},
		{"테스트는 tests/ 폴더에 있어요", "테스트는 tests/ 폴더에 있어요"},
		{"Ошибка находится в src/parser.ts", ""}, // the task of the moment, in Russian
		{"Testler tests/ klasöründe mi?", ""},    // a question
		{"테스트는 tests/ 폴더에 없어요", ""},              // is not there
		{"Я работаю на Windows 11 с WSL", "Я работаю на Windows 11 с WSL"},
		{"Lavoro su macOS", "Lavoro su macOS"},
		{"Saya pakai Windows 11", "Saya pakai Windows 11"},
		{"the bug is in src/parser.ts", ""},                            // the task of the moment
		{"Lee la tabla que se encuentra en el archivo @datos.pdf", ""}, // a request about a thing of the moment
		{"the tests are in good shape", ""},                            // no path
		{"where are the tests in src/?", ""},                           // a question
		// renamed or moved
		{"J'ai renommé 'src/content/config.ts' en 'src/content.config.ts' pour Astro 6.", "J'ai renommé 'src/content/config.ts' en 'src/content.config.ts' pour Astro 6"},
		{"I moved `lib/util.go` to `internal/util/util.go`", "I moved `lib/util.go` to `internal/util/util.go`"},
		{"我把 scripts/ 改名为 tools/", "我把 scripts/ 改名为 tools/"},
		{"請幫我把fiber_check_optimization.md移到~/WORK/SNMP_50ms/fiber_check", ""}, // a request for the move
		{"把 docs/old.md 移到 archive/", ""}, // so is a bare 把
		{"已将 config.yaml 移到 conf/", "已将 config.yaml 移到 conf/"},
		// set up
		{"Yo ya he configurado github-work en ~/.ssh/config para usar otra llave", "Yo ya he configurado github-work en ~/.ssh/config para usar otra llave"},
		{"I've configured the proxy in nginx/site.conf", "I've configured the proxy in nginx/site.conf"},
		// the environment
		{"Help me initialize git here, we are in a tpu vm.", "We are in a tpu vm"},
		{"Estoy en Windows 11 con WSL", "Estoy en Windows 11 con WSL"},
		{"Le site est en ligne sur o2switch mais les formulaires sont cassés", "Le site est en ligne sur o2switch"},
		{"This is a NestJS project. Create a cron job.", "The project uses NestJS"}, // written from its name (stack.go)
		{"This is a small NestJS service, we own it.", "This is a small NestJS service"},
		{"This is a separate service, we don't own it.", ""}, // what kind, not what it is built with
		{"Este es un proyecto separado.", ""},
		{"Dit is een Laravel-project", "Dit is een Laravel-project"},
		{"you are in a loop", ""},
		// what the person put in .gitignore; a request to is none
		{"ok ora la Action funziona perchè ho reinserito in .gitignore sia il docker-compose.yml che il Dockerfile", "Ho reinserito in .gitignore sia il docker-compose.yml che il Dockerfile"},
		{"I added dist/ and coverage/ to .gitignore.", "I added dist/ and coverage/ to .gitignore"},
		{"J'ai ajouté PROJECT_NOTES.md au .gitignore.", "J'ai ajouté PROJECT_NOTES.md au .gitignore"},
		{"我把 .env.local 加到了 .gitignore", "我把 .env.local 加到了 .gitignore"},
		{"add dist/ to .gitignore", ""},
		{"Can you add dist/ to .gitignore?", ""},
		// which version is used, said as the person's own upgrade
		{"I have updated runtime to version 16.", "I have updated runtime to version 16"},
		{"I upgraded Node to 22.4", "I upgraded Node to 22.4"},
		{"Ho aggiornato Next.js alla versione 15.", "Ho aggiornato Next.js alla versione 15"},
		{"Ich habe PHP auf Version 8.3 aktualisiert.", "Ich habe PHP auf Version 8.3 aktualisiert"},
		{"I updated the timeout to 30", ""},
		{"I have updated the file to include the new route", ""},
		{"update Node to version 20", ""},
		// a condition is no statement of where we are
		{"Je veux détecter automatiquement si on est sur mac pour adapter les raccourcis.", ""},
		{"If we are on Windows, use backslashes.", ""},
		{"Si estamos en Windows, usa PowerShell.", ""},
		{"On est sur un Mac.", "On est sur un Mac"},
		// a Chinese question without its mark
		{"为什么我在插件中看不到我当前的环境", ""},
		{"我们在虚拟机里。", "我们在虚拟机里"},
		// where a setting comes from
		{`get the connection string from env MONGODB_CONNECTION_STRING and use the DB "ProductDB"`, "Get the connection string from env MONGODB_CONNECTION_STRING"},
		{"The API key is read from the OPENROUTER_API_KEY env var.", "The API key is read from the OPENROUTER_API_KEY env var"},
		{"Lee la URL de la base de datos de la variable de entorno DATABASE_URL.", "Lee la URL de la base de datos de la variable de entorno DATABASE_URL"},
		{"Haal het wachtwoord uit de omgevingsvariabele SMTP_PASSWORD.", "Haal het wachtwoord uit de omgevingsvariabele SMTP_PASSWORD"},
		{"Lấy token từ biến môi trường GITHUB_TOKEN.", "Lấy token từ biến môi trường GITHUB_TOKEN"},
		{"从环境变量 OPENAI_API_KEY 读取密钥。", "从环境变量 OPENAI_API_KEY 读取密钥"},
		{"print the value from env MONGODB_URI", ""},         // not where it comes from
		{"remove the key from .env DATABASE_URL", ""},        // an edit
		{"get the logs from env PROD", ""},                   // not a variable's name
		{"read the token from GITHUB_TOKEN", ""},             // no environment named
		{"can you get the key from env OPENAI_API_KEY?", ""}, // a question
		// what the project uses: of the project, or against what it replaces (the whole sentence)
		{"This project uses pnpm.", "This project uses pnpm"},
		{"We gebruiken pnpm, niet npm.", "We gebruiken pnpm, niet npm"},
		{"Wir verwenden pnpm, nicht npm.", "Wir verwenden pnpm, nicht npm"},
		{"Ce projet utilise pnpm.", "Ce projet utilise pnpm"},
		{"Usamos pnpm, no npm.", "Usamos pnpm, no npm"},
		{"Este projeto usa pnpm.", "Este projeto usa pnpm"},
		{"这个项目用 pnpm，不要用 npm 装依赖。", "这个项目用 pnpm，不要用 npm 装依赖"},
		{"我们用 pnpm，不是 npm。", "我们用 pnpm，不是 npm"},
		{"Dự án này dùng pnpm, đừng dùng npm nhé.", "Dự án này dùng pnpm, đừng dùng npm nhé"},
		{"Chúng tôi dùng PostgreSQL chứ không phải MySQL.", "Chúng tôi dùng PostgreSQL chứ không phải MySQL"},
		{"このプロジェクトでは pnpm を使います。", "このプロジェクトでは pnpm を使います"},
		{"This project uses a lot of memory.", ""}, // no tool named
		{"This project uses Python 3.8 but I have 3.12 installed.", "This project uses Python 3.8"},
		{"Rodamos os testes com npm test mas falha.", ""},             // it failed, after the "but"
		{"We gebruiken een Map, niet een array.", ""},                 // the edit at hand
		{"这个项目用 Vue 重写一下。", ""},                                       // a request: rewrite it in Vue
		{"Chúng tôi dùng PostgreSQL.", "The project uses PostgreSQL"}, // a well-known name (stack.go)
		{"Chúng tôi dùng một Map.", ""},                               // "we use X" alone is English's
		{"Usamos pnpm, no npm?", ""},                                  // a question
		// how the work is run
		{"De tests draaien we met make test.", "De tests draaien we met make test"},
		{"Wir testen mit go test ./...", "Wir testen mit go test ./…"}, // the description ends with an ellipsis
		{"On lance les tests avec make test.", "On lance les tests avec make test"},
		{"Los tests los corremos con make test.", "Los tests los corremos con make test"},
		{"Rodamos os testes com npm test.", "Rodamos os testes com npm test"},
		{"测试用 vitest 跑，命令是 pnpm test。", "测试用 vitest 跑，命令是 pnpm test"},
		{"Test chạy bằng lệnh pnpm test.", "Test chạy bằng lệnh pnpm test"},
		{"テストは make test で実行します。", "テストは make test で実行します"},
		{"Corremos los tests con make test y falla.", ""},       // what failed
		{"We draaien de tests met make test en het faalt.", ""}, // the same in Dutch
		{"De tests draaien we met de hand.", ""},                // no command
		// where things are, a Chinese directory named without 下
		{"前端在 web/ 目录。", "前端在 web/ 目录"},
		// a task's first step, a plan of the day, what a message is
		{"先规划在 docs/plan.md 里面。", ""},
		{"完整执行计划在 plan-quiet-lagoon.md。", ""},
		{"这是让你了解小满crm项目的指令。", ""},
		{"之前整条流水线已经跑完了，看板也在 dashboard_2026-05-14.html。", ""}, // a day's file
	}
	for _, tt := range tests {
		got := said(t, tt.text)
		want := []string{}
		if tt.want != "" {
			want = []string{tt.want}
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("%q: memories %q, want %q", tt.text, got, want)
		}
	}
}

// TestStatedFactProvenance checks that a stated fact says which message of which session, on
// which day, established it.
func TestStatedFactProvenance(t *testing.T) {
	res := run(t, nil, userSession("s7", day(18), "hi", "The fixtures are in testdata/golden/."))
	if len(res.Response.Operations) != 1 {
		t.Fatalf("operations = %+v", briefs(res.Response.Operations))
	}
	op := res.Response.Operations[0]
	if !strings.Contains(op.Body, "2nd message of session s7 on 2026-11-18") {
		t.Errorf("body does not name the message, session and day: %q", op.Body)
	}
}
