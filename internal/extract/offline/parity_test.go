package offline

import "testing"

// TestEveryLanguageReadsWhatEnglishReads puts one message through the whole consolidator for each
// class of the person's words English reads (a standing rule, from now on, remember, by default,
// where things are, how the tests run, what the project uses, a switch that stands, "as I said")
// in the languages the rules read, said as people say them in each language's own order (Dutch
// and German put the verb first or last, Chinese the topic first). Each class has its near
// misses, which must stay out: a request for the edit at hand, a question, "for now", a
// description, a negated fact, a rule about a thing named earlier.
func TestEveryLanguageReadsWhatEnglishReads(t *testing.T) {
	tests := []struct {
		lang, text string
		keep       bool
	}{
		// what was kept before, still kept
		{"en", "Always use TypeScript for new files.", true},
		{"en", "Never use console.log in production code.", true},
		{"en", "We run the tests with make test.", true},
		{"en", "The frontend is in web/ and the backend in api/.", true},
		{"en", "From now on run npm run lint before committing.", true},
		{"zh", "请记住，数据库是 PostgreSQL，不是 MySQL。", true},
		{"zh", "我说过了，不要用 any 类型。", true},
		{"vi", "Luôn luôn viết test cho mọi hàm mới.", true},
		{"vi", "Nhớ là backend nằm trong thư mục server/.", true},
		{"vi", "Từ nay trở đi, chạy make lint trước khi commit.", true},
		{"nl", "Onthoud dat de API in de map backend/ staat.", true},
		{"nl", "Vanaf nu draaien we de tests met make test.", true},

		// English: the three shapes it missed
		{"en", "This project uses pnpm, don't use npm to install deps.", true},
		{"en", "Don't use axios anymore, use fetch everywhere.", true},
		{"en", "As I said, no jQuery.", true},
		{"en", "Don't use axios here, use fetch.", false},
		{"en", "As I said, it fails on CI.", false},
		// a "we do X" that reports the day's failure
		{"en", "We run the tests but they fail.", false},
		{"en", "We use pnpm and it keeps failing on install.", false},
		{"en", "We deploy with fly but it times out.", false},
		{"en", "We run the tests with make test, and they pass in CI.", true},

		// Dutch: verb-second and verb-final
		{"nl", "Gebruik altijd TypeScript voor nieuwe bestanden.", true},
		{"nl", "Gebruik nooit console.log in productiecode.", true},
		{"nl", "Console.log nooit gebruiken in productiecode.", true},
		{"nl", "De tests draaien we met make test.", true},
		{"nl", "We draaien de tests met make test.", true},
		{"nl", "We gebruiken pnpm, niet npm.", true},
		{"nl", "Dit project gebruikt pnpm.", true},
		{"nl", "Zoals ik al zei: geen jQuery gebruiken.", true},
		{"nl", "Gebruik geen moment.js meer, gebruik dayjs.", true},
		{"nl", "Niet meer axios gebruiken, overal fetch.", true},
		{"nl", "De frontend staat in web/ en de backend in api/.", true},
		{"nl", "Gebruik hier een Map.", false},
		{"nl", "De test faalt altijd.", false},
		{"nl", "Het faalt altijd op CI.", false},
		{"nl", "Gebruik altijd TypeScript?", false},
		{"nl", "Gebruik voorlopig altijd de mock.", false},
		{"nl", "We gebruiken geen Redis.", false},

		// German
		{"de", "Benutze immer TypeScript für neue Dateien.", true},
		{"de", "Verwende nie console.log im Produktionscode.", true},
		{"de", "Console.log nie im Produktionscode verwenden.", true},
		{"de", "Die Tests laufen wir mit make test.", true},
		{"de", "Wir verwenden pnpm, nicht npm.", true},
		{"de", "Dieses Projekt verwendet pnpm.", true},
		{"de", "Benutze kein axios mehr, nimm fetch.", true},
		{"de", "Wie gesagt: kein jQuery verwenden.", true},
		{"de", "Benutze hier eine Map.", false},
		{"de", "Der Test schlägt immer fehl.", false},
		{"de", "Es stürzt immer ab.", false},

		// French
		{"fr", "Utilise toujours TypeScript pour les nouveaux fichiers.", true},
		{"fr", "N'utilise jamais console.log en production.", true},
		{"fr", "On lance les tests avec make test.", true},
		{"fr", "Ce projet utilise pnpm, pas npm.", true},
		{"fr", "N'utilise plus axios, utilise fetch partout.", true},
		{"fr", "Comme je l'ai dit, pas de jQuery.", true},
		{"fr", "Le frontend est dans web/.", true},
		{"fr", "Utilise une Map ici.", false},
		{"fr", "Le test échoue toujours.", false},

		// Spanish
		{"es", "Usa siempre TypeScript para los archivos nuevos.", true},
		{"es", "Nunca uses console.log en producción.", true},
		{"es", "Los tests los corremos con make test.", true},
		{"es", "Este proyecto usa pnpm, no npm.", true},
		{"es", "Ya no uses axios, usa fetch en todos lados.", true},
		{"es", "Como te dije, nada de jQuery.", true},
		{"es", "El frontend está en web/.", true},
		{"es", "Usa un Map aquí.", false},
		{"es", "El test siempre falla.", false},

		// Portuguese
		{"pt", "Use sempre TypeScript para arquivos novos.", true},
		{"pt", "Nunca use console.log em produção.", true},
		{"pt", "Rodamos os testes com make test.", true},
		{"pt", "Este projeto usa pnpm, não npm.", true},
		{"pt", "Não use mais axios, use fetch em todo lugar.", true},
		{"pt", "O frontend fica em web/.", true},
		{"pt", "Use um Map aqui.", false},
		{"pt", "O teste sempre falha.", false},

		// Chinese
		{"zh", "以后提交代码前先跑一下 npm run lint。", true},
		{"zh", "这个项目用 pnpm，不要用 npm 装依赖。", true},
		{"zh", "别用 axios 了，统一用 fetch。", true},
		{"zh", "不要再用 moment 了，用 dayjs。", true},
		{"zh", "代码注释统一用中文写。", true},
		{"zh", "前端在 web/ 目录，后端在 api/ 目录。", true},
		{"zh", "测试用 vitest 跑，命令是 pnpm test。", true},
		{"zh", "以后所有新组件都用 TypeScript 写。", true},
		{"zh", "所有的接口返回都要用统一的 Result 结构。", true},
		{"zh", "今后一律用 pnpm。", true},
		{"zh", "千万别直接推到 main 分支。", true},
		{"zh", "按钮用红色。", false},
		{"zh", "测试总是失败。", false},
		{"zh", "以后再说吧。", false},
		{"zh", "以后可能会用 Redis。", false},
		{"zh", "要不要统一用 fetch？", false},
		{"zh", "这个函数以后都用 async 写。", false},

		// Vietnamese
		{"vi", "Dự án này dùng pnpm, đừng dùng npm nhé.", true},
		{"vi", "Đừng dùng thư viện moment, dùng dayjs.", true},
		{"vi", "Mình đã nói rồi, không dùng class component.", true},
		{"vi", "Chúng tôi dùng PostgreSQL chứ không phải MySQL.", true},
		{"vi", "Không được sửa file .env.production.", true},
		{"vi", "Dùng dayjs thay vì moment.", true},
		{"vi", "Đừng dùng axios nữa, dùng fetch.", true},
		{"vi", "Luôn dùng TypeScript cho file mới.", true},
		{"vi", "Test chạy bằng lệnh pnpm test.", true},
		{"vi", "Đổi màu nút sang đỏ.", false},
		{"vi", "Test luôn bị lỗi.", false},
		{"vi", "Tạm thời đừng dùng cache.", false},
		{"vi", "Có nên dùng dayjs thay vì moment không?", false},

		// Japanese
		{"ja", "このプロジェクトでは pnpm を使います。", true},
		{"ja", "もう axios は使わないで、fetch を使ってください。", true},
		{"ja", "テストは make test で実行します。", true},
		{"ja", "前にも言ったけど、jQuery は使わないで。", true},
		{"ja", "ボタンを赤にして。", false},
		{"ja", "テストがいつも失敗します。", false},

		// more near misses of the new shapes
		{"nl", "Gebruik hier altijd een Map.", false},
		{"nl", "Om altijd dezelfde versie te gebruiken, pin ik hem.", false},
		{"nl", "Ik wil nooit meer wachten op de build.", false},
		{"nl", "We draaien de tests met make test en het faalt.", false},
		{"de", "Wir verwenden hier eine Map, nicht ein Array.", false},
		{"de", "Es ist immer dasselbe.", false},
		{"fr", "Utilise toujours la fonction qui est déjà là.", false},
		{"es", "Corremos los tests con make test y falla.", false},
		{"es", "Usa siempre el mismo color aquí.", false},
		{"zh", "这个项目用 Vue 重写一下。", false},
		{"zh", "以后怎么办？", false},
		{"zh", "所有测试都通过了。", false},
		{"zh", "帮我写一个统一的错误处理。", false},
		{"zh", "不要再改了。", false},
		{"vi", "Không được rồi.", false},
		{"vi", "Đừng dùng cái này, dùng cái kia.", false},
		{"vi", "Chúng tôi dùng một Map.", false}, // "we use X" alone is English's, but for a well-known name (stack.go)
		{"en", "This project uses a lot of memory.", false},
		{"en", "Don't use it anymore here.", false},
		{"en", "As I said, no problem.", false},
		{"ja", "もう一度実行して。", false},

		// more of the shapes, as people say them
		{"nl", "Voer altijd eerst make lint uit.", true},
		{"nl", "Nooit direct naar main pushen.", true},
		{"de", "Nimm immer pnpm statt npm.", true},
		{"de", "Wir testen mit go test ./... im Ordner api/.", true},
		{"fr", "Utilise fetch au lieu de axios.", true},
		{"es", "Usa dayjs en vez de moment.", true},
		{"pt", "Use dayjs em vez de moment.", true},
		{"it", "Usa sempre pnpm, mai npm.", true},
		{"zh", "我们用 pnpm，不是 npm。", true},
		{"zh", "绝对不能提交 .env 文件。", true},
		{"vi", "Nhớ chạy make lint trước khi commit.", true},
		{"ja", "このリポジトリは pnpm を使っています。", true},

		// "we always / never …" with the verb between, and the verb first with from now on / by default
		{"nl", "We gebruiken altijd pnpm.", true},
		{"nl", "Gebruik vanaf nu pnpm.", true},
		{"nl", "Gebruik standaard de dev-config.", true},
		{"de", "Wir pushen nie direkt auf main.", true},
		{"de", "Benutze ab jetzt pnpm.", true},
		{"fr", "On n'utilise jamais npm ici dans ce projet, seulement pnpm.", false}, // the place at hand
		{"fr", "Nous n'utilisons jamais npm.", true},
		{"fr", "On utilise toujours pas la bonne version.", false}, // still not
		{"fr", "Utilise désormais pnpm.", true},
		{"es", "Usamos siempre pnpm.", true},
		{"pt", "Usamos sempre pnpm.", true},
		{"vi", "Chúng tôi luôn dùng pnpm.", true},
		{"ja", "コミット前に lint を実行するのを忘れないでください。", true},
		{"nl", "We hebben altijd problemen met de build.", false},
		{"de", "Wir sind immer zu spät.", false},
		{"de", "Mach immer weiter so.", false},
		{"nl", "Een standaard template gebruiken.", false},
		{"es", "Usa siempre el puerto 3000 aunque le paso otro.", false},
		{"es", "No uses más de 3 colores.", false},
		{"vi", "Không dùng được nữa.", false},
		{"es", "Estamos siempre esperando al CI.", false},

		// everyday messages that only look like rules (a probe of requests, reports and
		// questions; the first four were kept before this round too)
		{"zh", "代码在 src/ 目录下面吗", false},                // a question by its particle
		{"zh", "今后可能会迁移到 Go。", false},                  // a guess about later
		{"zh", "一律按照你的建议来。", false},                    // yes to the agent
		{"es", "Siempre falla el build en CI.", false}, // always, of what fails
		{"vi", "Luôn bị lỗi khi build.", false},
		{"ja", "いつもエラーになります。", false},
		{"zh", "千万别忘了保存。", false}, // the step at hand
		{"vi", "Không được, vẫn lỗi.", false},
		{"vi", "Nhớ quá đi mất.", false},
		{"nl", "Dit project gebruikt veel geheugen.", false},
		{"de", "Dieses Projekt verwendet zu viel Speicher.", false},
		{"en", "This project uses too much memory.", false},
		{"es", "Usamos siempre la misma base de datos por error.", false},
		{"pt", "Rodamos os testes com npm test mas falha.", false},
		{"en", "Stop using the old API, use the new one.", false},
		{"zh", "以后这个页面要加权限控制。", false},
		{"zh", "所有的测试都失败了。", false},
		{"zh", "别用这个方法了，试试另一种。", false},
		{"vi", "Đừng dùng nó nữa à?", false},
		{"de", "Das passiert immer, wenn ich neu lade.", false},
		{"fr", "Ça plante toujours au démarrage.", false},
		{"zh", "请一直等到它完成。", false},                // 一直: all the while
		{"zh", "所有的文件都要改一下。", false},              // the edit at hand
		{"zh", "每个页面都要加上标题吗", false},              // a question by its particle
		{"zh", "以後所有session 接近你都會提醒我嗎60%", false}, // a question by its particle, the figure after it
		{"zh", "问题在 main.go。", false},             // where the problem is: the task
		{"zh", "后端用 FastAPI 写一个接口。", false},       // a request
		{"nl", "Gebruik de functie die altijd faalt niet meer.", false},
		{"de", "Nimm die Version, die immer funktioniert.", false},
		{"fr", "Ne marche jamais avec Safari.", false}, // it never works
		{"es", "Recuerda, ayer lo arreglamos.", false}, // yesterday
		{"nl", "Denk eraan dat het morgen feestdag is.", false},
		{"pt", "Lembre de mim.", false},
		{"it", "Ricordati di me.", false},

		{"vi", "Luôn tiện sửa cái header luôn nhé.", false}, // while you are at it
		{"vi", "Nhớ là mai có buổi demo.", false},           // tomorrow
		{"vi", "Dùng flexbox thay vì grid cho phần này.", false},
		{"zh", "以后如果还有问题我再找你。", false},
		{"pt", "Use flexbox em vez de grid nessa parte.", false},
		{"en", "Don't use the old one anymore.", false}, // names nothing
		{"en", "This project uses Python 3.8 but I have 3.12 installed.", true},

		// "as I said" in more of its forms
		{"zh", "我之前说过，不要用 any 类型。", true},
		{"zh", "都说了，别用 axios。", true},
		{"zh", "我说了什么？", false},
		{"vi", "Mình bảo rồi mà, không dùng class component.", true},
		{"vi", "Như đã nói ở trên, đừng dùng jQuery.", true},

		// the other read languages: a switch, what the project uses
		{"ru", "Больше не используй moment.js, бери dayjs.", true},
		{"ru", "Мы используем pnpm, а не npm.", true},
		{"ru", "В этом проекте используется pnpm.", true},
		{"ru", "Больше не работает.", false},
		{"it", "Non usare più moment.js, usa dayjs.", true},
		{"it", "Usiamo pnpm, non npm.", true},
		{"pl", "Nie używaj już moment.js.", true},
		{"pl", "Używamy pnpm, nie npm.", true},
		{"cs", "Už nepoužívej moment.js.", true},
		{"cs", "Používáme pnpm, ne npm.", true},
		{"id", "Jangan pakai moment.js lagi, pakai dayjs.", true},
		{"id", "Proyek ini pakai pnpm.", true},
		{"ko", "이제 moment.js는 쓰지 마.", true},
		{"ko", "이 프로젝트는 pnpm을 사용합니다.", true},
		{"tr", "Artık moment.js kullanma.", true},
		{"tr", "Bu projede pnpm kullanıyoruz.", true},
		{"tr", "Artık çalışmıyor.", false},
		{"id", "Jangan pakai itu lagi.", false}, // names nothing

		// rules as people type them to agents
		{"zh", "所有新代码都要写单元测试。", true},
		{"zh", "请始终使用 TypeScript 严格模式。", true},
		{"zh", "我们的后端用的是 FastAPI。", true},
		{"zh", "注意：生产环境的配置在 config/prod.yaml。", true},
		{"zh", "以后回复都用中文。", true},
		{"zh", "不要使用 var，统一用 const 或 let。", true},
		{"zh", "千万不要直接修改 dist/ 目录下的文件。", true},
		{"zh", "不要再用 class 组件了，统一用函数组件和 hooks。", true},
		{"vi", "Không bao giờ commit file .env.", true},
		{"vi", "Từ giờ dùng pnpm thay vì npm nhé.", true},
		{"vi", "Đừng dùng jQuery nữa.", true},
		{"vi", "Code backend nằm trong thư mục api/.", true},
		{"vi", "Không được push thẳng lên main.", true},
		{"vi", "Dự án mình dùng Next.js với Tailwind.", true},
		{"nl", "Schrijf commitberichten altijd in het Engels.", true},
		{"nl", "Commit nooit direct op main.", true},
		{"nl", "Altijd eerst de tests draaien voor je commit.", true},
		{"nl", "Denk eraan om eerst make lint te draaien.", true},
		{"de", "Schreib Commit-Nachrichten immer auf Englisch.", true},
		{"de", "Pushe nie direkt auf main.", true},
		{"de", "Immer zuerst die Tests laufen lassen.", true},
		{"fr", "Ne pousse jamais directement sur main.", true},
		{"es", "Recuerda correr make lint antes de hacer commit.", true},
		{"es", "Nunca hagas push directo a main.", true},
		{"pt", "Escreva sempre os commits em inglês.", true},
		{"pt", "Lembre de rodar make lint antes do commit.", true},
		{"ja", "コミットメッセージは必ず英語で書いてください。", true},
		{"ja", "もう jQuery は使わないでください。", true},
	}
	for _, tt := range tests {
		t.Run(tt.lang+"/"+tt.text, func(t *testing.T) {
			ops := run(t, nil, userSession("s", day(18), tt.text)).Response.Operations
			if kept := len(ops) > 0; kept != tt.keep {
				t.Errorf("kept = %v (%+v), want %v", kept, briefs(ops), tt.keep)
			}
		})
	}
}
