package offline

import (
	"strings"
	"testing"
)

func TestOtherLanguageRules(t *testing.T) {
	tests := []struct {
		lang, text string
		want       string // the rule kept, "" for none
	}{
		{"zh", "以后都用 pnpm，不要用 npm。", "以后都用 pnpm，不要用 npm"},
		{"zh", "不对，不要用 Chart.js。", "不要用 Chart.js"},
		{"zh", "记住：测试要用 make test 跑。", "记住：测试要用 make test 跑"},
		{"zh", "不要改这个文件。", ""},
		{"zh", "以后再说吧。", ""},
		// asked to be kept in the agent's memory
		{"zh", "把这个记到你的记忆里：测试用 make test 跑。", "测试用 make test 跑"},
		{"zh", "写进记忆。", ""},
		{"zh", "这份规范只规定“必须做什么”和“绝对不能做什么”。", ""},
		{"zh", "我就是要把所有障碍都要排除。", ""},
		{"zh", "每个阶段都要有一个流转系统啊。", ""},
		{"zh", "所有的接口都要写单元测试。", "所有的接口都要写单元测试"},
		// standing by what they cover: every time the agent does a kind of thing, all of a kind,
		// what it may do only with the person's consent, what the person means by a word
		{"fr", "a chaque fois que tu vas faire une modification, pense bien a mettre le manuel a jour", "A chaque fois que tu vas faire une modification, pense bien a mettre le manuel a jour"},
		{"es", "Cada vez que hagas un cambio, actualiza el README.", "Cada vez que hagas un cambio, actualiza el README"},
		{"pt", "Toda vez que você alterar o código, rode os testes.", "Toda vez que você alterar o código, rode os testes"},
		{"de", "Jedes Mal, wenn du etwas änderst, aktualisiere die Doku.", "Jedes Mal, wenn du etwas änderst, aktualisiere die Doku"},
		{"nl", "Elke keer als je iets verandert, werk de README bij.", "Elke keer als je iets verandert, werk de README bij"},
		{"ru", "Каждый раз, когда ты меняешь код, запускай тесты.", "Каждый раз, когда ты меняешь код, запускай тесты"},
		{"es", "Cada vez que ejecuto npm test, falla.", ""},
		{"fr", "À chaque fois que tu lances le serveur, ça plante.", ""},
		{"ru", "Каждый раз, когда вы запускаете сборку, она падает.", ""},
		{"es", "Todas las rutas de la API deben requerir autenticación.", "Todas las rutas de la API deben requerir autenticación"},
		{"es", "todas las apis que hagas deberia el usuario estar autenticado", "Todas las apis que hagas deberia el usuario estar autenticado"},
		{"fr", "Tous les composants doivent être écrits en TypeScript.", "Tous les composants doivent être écrits en TypeScript"},
		{"fr", "Toutes les tables doivent être visibles dans la carte.", ""},
		{"es", "Todas las pruebas deben pasar.", ""},
		{"ru", "Без моего подтверждения ты не удаляешь файлы.", "Без моего подтверждения ты не удаляешь файлы"},
		{"es", "No borres archivos sin mi confirmación.", "No borres archivos sin mi confirmación"},
		{"zh", "未经我确认不要推送到远程。", "未经我确认不要推送到远程"},
		{"es", "revisa todo el proyecto debe usar nuqs para el estado de los parámetros de búsqueda", "Revisa todo el proyecto debe usar nuqs para el estado de los parámetros de búsqueda"},
		{"zh", "整个项目都要用 pnpm。", "整个项目都要用 pnpm"},
		{"zh", "帮我写进codex的agentmd全局，就是一切操作，不是我特地要求git，都不要用git进行操作或检查", "帮我写进codex的agentmd全局，就是一切操作，不是我特地要求git，都不要用git进行操作或检查"},
		{"zh", "一切操作都不要用 git。", "一切操作都不要用 git"},
		{"zh", "帮我写进codex的那个全局里面，就是以后回答用最简洁的代码，然后要尽量少用辅助函数", "帮我写进codex的那个全局里面，就是以后回答用最简洁的代码，然后要尽量少用辅助函数"},
		{"zh", "帮我写进codex的全局。", ""},
		{"zh", "帮我写进电脑codex的全局，不是项目的全局", ""},
		{"zh", "我想要把所有的都关掉。", ""},
		{"fr", "quand je te dis de mettre a jour le manuel je te dis de mettre a jour manual.jsx", "Quand je te dis de mettre a jour le manuel je te dis de mettre a jour manual.jsx"},
		{"fr", "Quand je lance le serveur, ça plante.", ""},
		{"es", "Next.js 16 ya no se llama middleware.ts, se llama proxy.ts.", "Next.js 16 ya no se llama middleware.ts, se llama proxy.ts"},
		// named a rule
		{"vi", "Nguyên tắc bổ sung: thiếu dữ liệu thì phải hỏi tôi.", "Nguyên tắc bổ sung: thiếu dữ liệu thì phải hỏi tôi"},
		{"zh", "原则：数据缺失时必须问我，不要编造。", "原则：数据缺失时必须问我，不要编造"},
		{"es", "Regla: nunca hagas push a main.", "Regla: nunca hagas push a main"},
		{"nl", "Regel: we committen nooit direct op main.", "Regel: we committen nooit direct op main"},
		{"es", "Regla: ¿usamos pnpm o npm?", ""},
		{"ru", "Формат ответа: в начале ответа используй эмодзи с солнцем, отвечай коротко.", "Формат ответа: в начале ответа используй эмодзи с солнцем, отвечай коротко"},
		{"zh", "回答格式：先给结论，再给理由", "回答格式：先给结论，再给理由"},
		{"zh", "规则：", ""},
		{"zh", "如果对话过长，确保写入记忆的颗粒度足够。", ""},
		{"vi", "Lưu vào bộ nhớ của bạn là tôi không biết gì về lập trình.", "Lưu vào bộ nhớ của bạn là tôi không biết gì về lập trình"},
		{"nl", "Sla dit op in je geheugen: de tests draaien met make test.", "De tests draaien met make test"},
		{"es", "Guarda en tu memoria que usamos pnpm.", "Guarda en tu memoria que usamos pnpm"},
		// later, without telling the agent what to do; the person's own plan; the moment's
		{"zh", "以后想做的时候随时可以调用记忆。", ""},
		{"zh", "以后执行复杂项目的时候我尽量主动要求你。", ""},
		{"zh", "以后每个想法都要更新文档，会导致文档爆炸。", ""},
		{"zh", "我希望回复是差异化的，不是每个客户的回复都要抛钩子。", ""},
		{"zh", "以后你给出的回复必须是中文。", "以后你给出的回复必须是中文"},
		{"zh", "默认阈值统一（上述阈值作为起点）。", ""},
		{"zh", "千万不要改数据，而是：", ""},
		{"zh", "为什么总是失败？", ""},
		{"ja", "今後、コミットメッセージは英語で書いてください。", "今後、コミットメッセージは英語で書いてください"},
		{"es", "Siempre usa pnpm, nunca npm.", "Siempre usa pnpm, nunca npm"},
		{"es", "No, no uses Chart.js para los gráficos.", "No uses Chart.js para los gráficos"},
		{"es", "No uses Chart.js para los gráficos.", ""},
		{"es", "¿Siempre falla el test?", ""},
		{"pt", "A partir de agora, rode os testes com pytest -q.", "A partir de agora, rode os testes com pytest -q"},
		{"fr", "Désormais, les migrations vont dans db/migrations.", "Désormais, les migrations vont dans db/migrations"},
		{"de", "Ab jetzt bitte immer gofmt vor dem Commit laufen lassen.", "Ab jetzt bitte immer gofmt vor dem Commit laufen lassen"},
		{"de", "Nie direkt auf main pushen!", "Nie direkt auf main pushen"},
		{"de", "Niedrige Priorität, mach das später.", ""},
		{"nl", "Voortaan gebruiken we uv in plaats van poetry.", "Voortaan gebruiken we uv in plaats van poetry"},
		{"vi", "Từ giờ luôn chạy make lint trước khi commit.", "Từ giờ luôn chạy make lint trước khi commit"},
		{"vi", "Hôm nay luôn chạy test trước.", ""},
		{"vi", "Tu gio luon chay make lint truoc khi commit.", "Tu gio luon chay make lint truoc khi commit"},
		{"vi", "Khong, dung dung npm, dung pnpm.", ""}, // unmarked "dung" is use, don't and right: not read
		{"zh", "不是 npm，而是 pnpm。", "不是 npm，而是 pnpm"},
		{"zh", "这不是 bug。", ""},
		// how real sessions flag what stands: "I forgot to mention", "it is very important that",
		// a prohibition, after a word that only goes on or a list's label
		{"es", "Olvidé mencionarte que el deploy es con fly.", "Olvidé mencionarte que el deploy es con fly"},
		{"es", "Ahora, ten en cuenta que los viernes no se despliega.", "Ten en cuenta que los viernes no se despliega"},
		{"es", "Es muy importante que las migraciones sean reversibles.", "Es muy importante que las migraciones sean reversibles"},
		{"fr", "2. MOTEUR INTACT : INTERDICTION de changer mon copywriting.", "INTERDICTION de changer mon copywriting"},
		{"fr", "INTERDICTION de modifier le CSS pour le moment.", ""}, // for now
		{"fr", "Attends, petite correction :\nUtilise l'import de astro:assets.", "Utilise l'import de astro:assets"},
		{"fr", "N'oublie pas de lancer npm run check.", "N'oublie pas de lancer npm run check"},
		{"de", "Es ist sehr wichtig, dass die API abwärtskompatibel bleibt.", "Es ist sehr wichtig, dass die API abwärtskompatibel bleibt"},
		{"nl", "Het is belangrijk dat de tests offline draaien.", "Het is belangrijk dat de tests offline draaien"},
		{"nl", "Nee, gebruik geen moment.js.", "Gebruik geen moment.js"},
		{"pt", "É muito importante que o build não use rede.", "É muito importante que o build não use rede"},
		{"vi", "Quan trọng là không commit file .env.", "Quan trọng là không commit file .env"},
		{"zh", "忘了说，部署用 make deploy。", "忘了说，部署用 make deploy"},
		{"ja", "言い忘れましたが、テストは make test で動かします。", "言い忘れましたが、テストは make test で動かします"},
		// the topic first, the cue inside: Chinese, and Japanese with a request's ending
		{"zh", "这个项目以后都用 pnpm。", "这个项目以后都用 pnpm"},
		{"zh", "提交之前务必跑一遍 make lint。", "提交之前务必跑一遍 make lint"},
		{"ja", "このリポジトリでは今後は pnpm を使ってください。", "このリポジトリでは今後は pnpm を使ってください"},
		{"ja", "コミットする前に必ず make lint を実行すること。", "コミットする前に必ず make lint を実行すること"},
		{"ja", "テストは必ず失敗します。", ""}, // no request: a remark
		{"zh", "我以后再看。", ""},
		// Vietnamese cues inside the rule: every time, all, later's every, a principle, I want you always
		{"vi", "Mỗi lần sửa xong phải chạy test", "Mỗi lần sửa xong phải chạy test"},
		{"vi", "Sau này mọi thay đổi đều phải tạo PR", "Sau này mọi thay đổi đều phải tạo PR"},
		{"vi", "nguyên tắc bổ sung thiếu dữ liệu thì phải hỏi tôi", "Nguyên tắc bổ sung thiếu dữ liệu thì phải hỏi tôi"},
		{"vi", "Mình muốn bạn luôn trả lời ngắn gọn", "Mình muốn bạn luôn trả lời ngắn gọn"},
		{"vi", "Tất cả các test đều không được", ""},                                      // all of them fail
		{"vi", "tôi muốn mở folder đó trên terminal luôn", ""},                            // right away
		{"vi", "ý tôi là trung tâm của mọi cuộc hội thoại chứ ko phải của dự án này", ""}, // rather than
		// Chinese: every time, ask me first, a plan before the change, how comments and answers are written
		{"zh", "每次修改完都要跑一遍测试", "每次修改完都要跑一遍测试"},
		{"zh", "如果付款方式你不清楚，先问我", "如果付款方式你不清楚，先问我"},
		{"zh", "修改代码前先给我方案，我同意后再执行", "修改代码前先给我方案，我同意后再执行"},
		{"zh", "代码注释用中文", "代码注释用中文"},
		{"zh", "回答要简洁", "回答要简洁"},
		{"zh", "但是我不知道是否每次都要存全部的历史对话", ""}, // wondering
		{"zh", "我每次都要点yes，好麻烦", ""},        // the person's own chore
		{"zh", "开始前先告诉我，整个流程大概需要多久", ""},   // a request of the moment
		// Japanese: every time, on your own, ask me first, how a commit message is written
		{"ja", "毎回ビルドしてから確認してください", "毎回ビルドしてから確認してください"},
		{"ja", "わからないことがあれば、まず私に聞いてください", "わからないことがあれば、まず私に聞いてください"},
		{"ja", "コミットメッセージは日本語で書いてください", "コミットメッセージは日本語で書いてください"},
		{"ja", "毎回ビルドが失敗します", ""}, // what happens
		{"pt", "De agora em diante, use sempre pnpm", "De agora em diante, use sempre pnpm"},
		{"es", "Desde ahora los commits van en inglés", "Desde ahora los commits van en inglés"},
		// flagged afterwards
		{"pt", "O servidor de produção fica no Hetzner, grave essa informação e salve no histórico", "O servidor de produção fica no Hetzner"},
		{"es", "Los tests se ejecutan con pnpm test, guarda esto en tu memoria", "Los tests se ejecutan con pnpm test"},
		{"fr", "Le déploiement se fait avec make deploy, retiens-le", "Le déploiement se fait avec make deploy"},
		{"zh", "测试用 make test 跑，记住这个", "测试用 make test 跑"},
		{"pt", "Isso, grave isso", ""}, // nothing said to flag
		{"pt", "Salve isso na memória: os testes rodam com pnpm test", "Os testes rodam com pnpm test"},
		{"zh", "以后所有的claude skill 保存在我本地个人目录,而非项目目录", "以后所有的claude skill 保存在我本地个人目录,而非项目目录"}, // later's all of a kind
		{"zh", "以后所有版本可能会不一样。", ""},                                                          // a guess about later
		{"zh", "commit message要简洁,参考当前分支上一次的提交", "Commit message要简洁,参考当前分支上一次的提交"},           // how an artifact is written
		{"zh", "这次的 commit message 写得太长了。", ""},
		// a rule about a thing named earlier says nothing on its own
		{"es", "Olvidé mencionarte que el día de estudio para esta asignatura es el martes.", ""},
		{"fr", "N'oublie pas que cette page doit rester en français.", ""},
		{"es", "Recuerda que este proyecto usa pnpm.", "Recuerda que este proyecto usa pnpm"},
		{"ru", "Запомни: эта функция должна быть быстрой.", ""},
		{"ru", "Запомни: в этом проекте используем pnpm.", "Запомни: в этом проекте используем pnpm"},
		{"it", "Ricorda che questa pagina deve restare in italiano.", ""},
		{"it", "Ricorda che questo progetto usa pnpm.", "Ricorda che questo progetto usa pnpm"},
		{"tr", "Her zaman bu fonksiyonu test et.", ""},
		{"tr", "Bu projede asla yarn kullanma.", "Bu projede asla yarn kullanma"},
		{"id", "Selalu pakai warna biru di halaman ini.", ""},
		{"id", "Selalu pakai pnpm di proyek ini.", "Selalu pakai pnpm di proyek ini"},
		{"ko", "항상 이 함수를 먼저 실행해.", ""},
		// Russian and Ukrainian: the imperative in either aspect; a verb of the third person or
		// the past describes ("всегда падает": always fails)
		{"ru", "Всегда запускай тесты через make test.", "Всегда запускай тесты через make test"},
		{"ru", "Никогда не пушь напрямую в main.", "Никогда не пушь напрямую в main"},
		{"ru", "Запомни: миграции лежат в db/migrations.", "Запомни: миграции лежат в db/migrations"},
		{"ru", "С этого момента пиши коммиты на английском.", "С этого момента пиши коммиты на английском"},
		{"ru", "Нет, не используй moment.js.", "Не используй moment.js"},
		{"ru", "Не используй moment.js.", ""}, // a request of the moment
		{"ru", "Всегда падает тест на CI.", ""},
		{"ru", "Никогда не работало на Windows.", ""},
		{"ru", "Всегда ли нужно запускать линтер?", ""},
		{"ru", "Сейчас всегда запускай только один тест.", ""}, // for now
		{"uk", "Завжди запускай тести перед комітом.", "Завжди запускай тести перед комітом"},
		{"uk", "Відтепер використовуй pnpm замість npm.", "Відтепер використовуй pnpm замість npm"},
		{"uk", "Завжди падає на CI.", ""},
		// Turkish: cues at a word's start (unutmayın), the verb last, inside a sentence too
		{"tr", "Her zaman commit etmeden önce make lint çalıştır.", "Her zaman commit etmeden önce make lint çalıştır"},
		{"tr", "Unutmayın, testler tests/ klasöründe.", "Unutmayın, testler tests/ klasöründe"},
		{"tr", "Bu projede asla npm kullanma.", "Bu projede asla npm kullanma"},
		{"tr", "Hayır, moment.js kullanma.", "Moment.js kullanma"},
		{"tr", "Her zaman başarısız oluyor.", ""},
		{"tr", "Şimdilik her zaman tek test çalıştır.", ""},
		{"tr", "Kullanıcı adı yanlış.", ""},
		{"tr", "Kural: testleri dikkatli yaz.", ""}, // "Rule:" opens exhortations of the moment as often as rules
		{"tr", "Ana dala doğrudan push etmek kesinlikle yasaktır.", "Ana dala doğrudan push etmek kesinlikle yasaktır"},
		{"tr", "Bu yasak değil mi?", ""},
		// Italian, Polish, Czech
		{"it", "Usa sempre pnpm, mai npm.", "Usa sempre pnpm, mai npm"}, // the verb first, the cue after it
		{"it", "D'ora in poi esegui i test con pytest -q.", "D'ora in poi esegui i test con pytest -q"},
		{"it", "Ricorda che il deploy si fa con make deploy.", "Ricorda che il deploy si fa con make deploy"},
		{"it", "No, non usare moment.js.", "Non usare moment.js"},
		{"it", "Per ora mai toccare il CSS.", ""},
		{"pl", "Zawsze uruchamiaj testy przed commitem.", "Zawsze uruchamiaj testy przed commitem"},
		{"pl", "Pamiętaj, że konfiguracja jest w config/.", "Pamiętaj, że konfiguracja jest w config/"},
		{"pl", "Nie, nie używaj moment.js.", "Nie używaj moment.js"},
		{"pl", "Na razie zawsze uruchamiaj jeden test.", ""},
		{"cs", "Vždy spouštěj testy před commitem.", "Vždy spouštěj testy před commitem"},
		{"cs", "Od teď používej pnpm místo npm.", "Od teď používej pnpm místo npm"},
		{"cs", "Nepoužívej moment.js.", ""},
		// Korean: a cue before a request's ending; a description has none
		{"ko", "항상 pnpm을 사용해 주세요.", "항상 pnpm을 사용해 주세요"},
		{"ko", "커밋하기 전에 항상 make lint를 실행해.", "커밋하기 전에 항상 make lint를 실행해"},
		{"ko", "앞으로는 커밋 메시지를 영어로 써.", "앞으로는 커밋 메시지를 영어로 써"},
		{"ko", "기억해, 테스트는 tests/ 폴더에 있어.", "기억해, 테스트는 tests/ 폴더에 있어"},
		{"ko", "아니, moment.js 사용하지 마.", "Moment.js 사용하지 마"},
		{"ko", "항상 테스트가 실패합니다.", ""},
		{"ko", "오늘은 항상 한 개의 테스트만 실행해.", ""},
		// Indonesian and Malay
		{"id", "Selalu jalankan make lint sebelum commit.", "Selalu jalankan make lint sebelum commit"},
		{"id", "Jangan pernah push langsung ke main.", "Jangan pernah push langsung ke main"},
		{"id", "Mulai sekarang gunakan pnpm, bukan npm.", "Mulai sekarang gunakan pnpm, bukan npm"},
		{"id", "Tidak, jangan pakai moment.js.", "Jangan pakai moment.js"},
		{"id", "Jangan pakai moment.js.", ""},
		{"id", "Untuk sekarang selalu jalankan satu test saja.", ""},
		{"id", "Selalu gagal di CI?", ""},
		// the verb first, the cue after it; in Dutch and German the verb last
		{"nl", "Gebruik altijd TypeScript voor nieuwe bestanden.", "Gebruik altijd TypeScript voor nieuwe bestanden"},
		{"nl", "Console.log nooit gebruiken in productiecode.", "Console.log nooit gebruiken in productiecode"},
		{"nl", "Voer altijd eerst make lint uit.", "Voer altijd eerst make lint uit"},
		{"de", "Verwende nie console.log im Produktionscode.", "Verwende nie console.log im Produktionscode"},
		{"de", "Console.log nie im Produktionscode verwenden.", "Console.log nie im Produktionscode verwenden"},
		{"fr", "Utilise toujours TypeScript pour les nouveaux fichiers.", "Utilise toujours TypeScript pour les nouveaux fichiers"},
		{"es", "Usa siempre TypeScript para los archivos nuevos.", "Usa siempre TypeScript para los archivos nuevos"},
		{"pt", "Use sempre TypeScript para arquivos novos.", "Use sempre TypeScript para arquivos novos"},
		{"nl", "De test faalt altijd.", ""},                        // a description
		{"nl", "Gebruik hier altijd een Map.", ""},                 // the place at hand
		{"nl", "Gebruik voorlopig altijd de mock.", ""},            // for now
		{"nl", "Ik wil nooit meer wachten op de build.", ""},       // said of the person
		{"nl", "Om altijd dezelfde versie te gebruiken, pin.", ""}, // a purpose
		{"de", "Es stürzt immer ab.", ""},
		{"fr", "Le test échoue toujours.", ""},
		// a switch that says it stands
		{"nl", "Gebruik geen moment.js meer, gebruik dayjs.", "Gebruik geen moment.js meer, gebruik dayjs"},
		{"nl", "Niet meer axios gebruiken, overal fetch.", "Niet meer axios gebruiken, overal fetch"},
		{"de", "Benutze kein axios mehr, nimm fetch.", "Benutze kein axios mehr, nimm fetch"},
		{"fr", "N'utilise plus axios, utilise fetch partout.", "N'utilise plus axios, utilise fetch partout"},
		{"es", "Ya no uses axios, usa fetch en todos lados.", "Ya no uses axios, usa fetch en todos lados"},
		{"pt", "Não use mais axios, use fetch em todo lugar.", "Não use mais axios, use fetch em todo lugar"},
		{"zh", "别用 axios 了，统一用 fetch。", "别用 axios 了，统一用 fetch"},
		{"zh", "不要再用 moment 了，用 dayjs。", "不要再用 moment 了，用 dayjs"},
		{"vi", "Đừng dùng axios nữa, dùng fetch.", "Đừng dùng axios nữa, dùng fetch"},
		{"vi", "Dùng dayjs thay vì moment.", "Dùng dayjs thay vì moment"},
		{"vi", "Đừng dùng thư viện moment, dùng dayjs.", "Đừng dùng thư viện moment, dùng dayjs"},
		{"ja", "もう axios は使わないで、fetch を使ってください。", "もう axios は使わないで、fetch を使ってください"},
		{"zh", "不要再改了。", ""},                              // names nothing
		{"vi", "Đừng dùng cái này, dùng cái kia.", ""},    // names nothing
		{"es", "Usa un Map aquí en vez de un array.", ""}, // the place at hand
		// Chinese: 以后 / 统一 / 所有…都 / 千万别 inside or at the opening
		{"zh", "以后提交代码前先跑一下 npm run lint。", "以后提交代码前先跑一下 npm run lint"},
		{"zh", "代码注释统一用中文写。", "代码注释统一用中文写"},
		{"zh", "所有的接口返回都要用统一的 Result 结构。", "所有的接口返回都要用统一的 Result 结构"},
		{"zh", "千万别直接推到 main 分支。", "千万别直接推到 main 分支"},
		{"zh", "以后怎么办", ""},
		{"zh", "所有测试都通过了。", ""},
		{"zh", "帮我写一个统一的错误处理。", ""},
		{"zh", "这个函数以后都用 async 写。", ""}, // a thing named earlier
		// Vietnamese: không được (must not), nhớ (remember)
		{"vi", "Không được sửa file .env.production.", "Không được sửa file .env.production"},
		{"vi", "Nhớ chạy make lint trước khi commit.", "Nhớ chạy make lint trước khi commit"},
		{"vi", "Không được rồi.", ""}, // it did not work
		// French "toujours" is "still" as well as "always": a state is no rule
		{"fr", "Toujours rien.", ""},
		{"fr", "Toujours carte vide.", ""},
		{"fr", "Toujours la même erreur.", ""},
		{"fr", "Toujours pas.", ""},
		{"fr", "Toujours lancer les tests avant de pousser.", "Toujours lancer les tests avant de pousser"},
		// always / never / still, then what happens: a state, not a rule
		{"es", "Siempre falla el test en CI.", ""},
		{"es", "Nunca funciona a la primera.", ""},
		{"pt", "Sempre dá erro no build.", ""},
		{"it", "Sempre lo stesso errore.", ""},
		{"de", "Immer noch der gleiche Fehler.", ""},
		{"de", "Immer wieder stürzt die App ab.", ""},
		{"nl", "Altijd crasht de app bij het opstarten.", ""},
		{"fr", "Toujours planté au démarrage.", ""},
		{"de", "Immer gofmt vor dem Commit laufen lassen.", "Immer gofmt vor dem Commit laufen lassen"},
		{"es", "Nunca hagas push directo a main.", "Nunca hagas push directo a main"},
		// a want, then a cue of time: the rule is what is wanted from then on
		{"fr", "Je souhaite dorénavant que tu me parles en français.", "Je souhaite dorénavant que tu me parles en français"},
		{"es", "Quiero que a partir de ahora los commits sean en inglés.", "Quiero que a partir de ahora los commits sean en inglés"},
		{"it", "Vorrei che d'ora in poi usassi pnpm.", "Vorrei che d'ora in poi usassi pnpm"},
		{"de", "Ich möchte ab jetzt, dass du Englisch schreibst.", "Ich möchte ab jetzt, dass du Englisch schreibst"},
		{"fr", "Je veux toujours voir le nombre de descendants.", ""}, // "still want": no cue of time
		{"fr", "Je veux que les tests passent.", ""},                  // a want alone is a request
		{"it", "Da ora lavora come uno sviluppatore senior.", "Da ora lavora come uno sviluppatore senior"},
		// in general, then a want: a standing preference; in general alone describes
		{"fr", "De manière générale, je souhaite que le code soit factorisé au maximum.", "De manière générale, je souhaite que le code soit factorisé au maximum"},
		{"es", "En general, quiero que los tests sean rápidos.", "En general, quiero que los tests sean rápidos"},
		{"es", "En general funciona bien.", ""},
		{"fr", "En règle générale, le build est lent.", ""},
		// as far as possible, don't: a constraint on the work
		{"zh", "我想要的是创建一个新的notebook，尽量不要去改源代码的文件和格式。", "我想要的是创建一个新的notebook，尽量不要去改源代码的文件和格式"},
		{"zh", "尽量避免引入新的依赖。", "尽量避免引入新的依赖"},
		{"zh", "尽量快一点。", ""},
		// the person says they had it wrong before: the request corrects it
		{"zh", "不要用animator，用actor,我之前说错了", "不要用animator，用actor,我之前说错了"},
		{"fr", "N'utilise pas Redux, je me suis trompé.", "N'utilise pas Redux, je me suis trompé"},
		{"zh", "不要用animator，用actor", ""}, // a request of the moment
		{"zh", "我说错了一句话的意思是什么", ""},
		// a pronoun that stands for a thing said before
		{"fr", "Dorénavant tu peux indiquer ça dans le fichier projet notes.", ""},
		{"es", "A partir de ahora haz eso en cada commit.", ""},
		{"fr", "Dorénavant, ça passe par pnpm.", "Dorénavant, ça passe par pnpm"},
		{"en", "No. Use pnpm instead of npm.", ""},
		{"en", "Never push to main.", ""}, // the English rules read it, not these
	}
	for _, tt := range tests {
		t.Run(tt.lang+"/"+tt.text, func(t *testing.T) {
			var got []string
			for _, n := range languageLessons(tt.text, nil) {
				got = append(got, n.rule)
			}
			if want := tt.want; strings.Join(got, "|") != want {
				t.Errorf("rules = %q, want %q", got, want)
			}
		})
	}
}

// TestOtherLanguageMemories runs rules in Chinese and Spanish through the consolidator: each
// becomes one memory, a repeat reinforces it, and the reason says who said it where.
func TestOtherLanguageMemories(t *testing.T) {
	ops := run(t, nil,
		userSession("zh1", day(16), "帮我修一下登录的 bug。以后都用 pnpm，不要用 npm。"),
		userSession("es1", day(17), "Siempre escribe los mensajes de commit en inglés."),
		userSession("zh2", day(18), "以后都用 pnpm，不要用 npm。"),
	).Response.Operations
	ops = notWritten(ops)
	if len(ops) != 2 {
		t.Fatalf("operations = %+v, want two memories", briefs(ops))
	}
	for _, op := range ops {
		if op.Type != "feedback" || !strings.Contains(op.Reason, "explicit user statement") {
			t.Errorf("%s: type %s, reason %q", op.Name, op.Type, op.Reason)
		}
	}
	for _, op := range ops {
		if strings.Contains(op.Description, "pnpm") && strings.Join(op.Evidence, ",") != "zh1,zh2" {
			t.Errorf("the Chinese rule = %+v, want it with evidence zh1,zh2", briefs(ops))
		}
	}
}

func TestUnreadLanguageSaid(t *testing.T) {
	tests := []struct{ name, text, skipped string }{
		{"Russian is read", "Всегда запускай тесты перед коммитом, пожалуйста.", ""},
		{"Ukrainian is read", "Завжди запускай тести перед комітом, будь ласка.", ""},
		{"Korean is read", "커밋하기 전에 항상 테스트를 실행해 주세요.", ""},
		{"Serbian is not", "Увек покрени тестове пре него што направиш комит, молим те, и још једном провери.", "Cyrillic"},
		{"Russian without its own letters is read", "сам запроси доступ к файлам и проверь хоткей на главной странице", ""},
		{"Bulgarian is not", "Винаги пускай тестовете преди всеки комит, моля, и не използвай npm в този проект.", "Cyrillic"},
		{"Greek is not", "Πάντα να τρέχεις τα τεστ πριν από κάθε commit, σε παρακαλώ.", "Greek"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := run(t, nil, userSession("s", day(18), tt.text))
			said := strings.Contains(res.Response.Summary, "skipped")
			if tt.skipped == "" && said {
				t.Errorf("summary %q names a read language as skipped", res.Response.Summary)
			}
			if tt.skipped != "" && !strings.Contains(res.Response.Summary, "1 session partly in a language it has no rules for ("+tt.skipped+") skipped") {
				t.Errorf("summary %q does not say the session's language was skipped", res.Response.Summary)
			}
		})
	}
}

// TestUnreadLatinLanguage names Latin-script languages no rule reads, with marks (Slovak,
// Hungarian) or without (Swahili, Tagalog), and not the ones the rules read, English included.
func TestUnreadLatinLanguage(t *testing.T) {
	tests := []struct{ text, want string }{
		{"Prosím, vždy spusti testy pred každým commitom a skontroluj, či ľavý panel funguje aj v mobilnom zobrazení, ďakujem pekne.", "Slovak"},
		{"Tafadhali endesha majaribio kila wakati kabla ya kufanya commit, na usitumie npm katika mradi huu hata kidogo.", "Swahili"},
		{"Pakiayos mo ang navbar sa mobile, ilagay mo ang logo sa gitna at ang mga menu sa kaliwa, salamat po.", "Tagalog"},
		{"pojdme předělat navbar podle principu mobile first, logo uprostřed, hamburger pro navigační menu nalevo a košík napravo, účet bude dostupný pod hamburger menu", ""},
		{"Tolong selalu jalankan test sebelum commit dan jangan pakai npm di proyek ini, gunakan pnpm saja ya.", ""},
		{"Proszę, zawsze uruchamiaj testy przed commitem i nie używaj npm w tym projekcie, tylko pnpm.", ""},
		{"Lütfen her zaman commit etmeden önce testleri çalıştır ve bu projede npm kullanma, pnpm kullan.", ""},
		{"Per favore esegui sempre i test prima di ogni commit e non usare npm in questo progetto.", ""},
		{"please move the navbar a bit lower and align the logo with the cart on the right side", ""},
		{"3u3u3u9u9u9u3u3u9u9u3u3u3u", ""},
		{"GET https://shopify.com/88195727624/auth/oauth/authorize?client_id=shp_85d80d3d&scope=openid+email 400", ""},
		{"La configuración está en config/ y los tests se ejecutan con make test antes de cada commit.", ""},
		// Vietnamese shares ô and đ with Slovak and Croatian: its tones tell it, and the rules read it
		{"khi tôi thử đăng nhập sai, exception được hiển thị đúng, nhưng khi chuyển sang màn khác và quay lại màn login thì exception vẫn hiển thị", ""},
		{"khi loại bỏ navigation trong viewmodel thì sau khi đăng nhập thành công, app không chuyển đến homescreen", ""},
		{"thêm nữa, khi tôi reload lại app thì việc đăng nhập đã thành công, app hiển thị homescreen", ""},
	}
	for _, tt := range tests {
		if got := unreadLatin(tt.text); got != tt.want {
			t.Errorf("unreadLatin(%q) = %q, want %q", tt.text, got, tt.want)
		}
	}
	res := run(t, nil, userSession("sw", day(18), tests[1].text))
	if !strings.Contains(res.Response.Summary, "(Swahili) skipped") {
		t.Errorf("summary %q does not say the Swahili session was skipped", res.Response.Summary)
	}
}

// TestRepeatedCJKProhibition keeps a prohibition said in Chinese or Japanese in two messages,
// however it is worded, keyed by the names it forbids.
func TestRepeatedCJKProhibition(t *testing.T) {
	tests := []struct {
		name       string
		first, sec string
		want       int
	}{
		{"Chinese, two wordings", "帮我画个图表，不要用 Chart.js。", "别用Chart.js。", 1},
		{"Japanese, two wordings", "グラフには Chart.js は使わないで。", "Chart.jsを使わないでください。", 1},
		{"said once", "不要用 Chart.js。", "好的，继续。", 0},
		{"two things forbidden", "不要用 Chart.js。", "不要用 moment.js。", 0},
		{"no name", "不要改这个文件。", "别改这个文件。", 0},
		{"Russian, two wordings", "Сделай график, но не используй Chart.js.", "Не используй Chart.js для графиков.", 1},
		{"Turkish, two wordings", "Grafik için Chart.js kullanma.", "Lütfen Chart.js kullanmayın.", 1},
		{"Korean, two wordings", "차트에는 Chart.js 사용하지 마.", "Chart.js를 쓰지 마세요.", 1},
		{"Italian, two wordings", "Per il grafico non usare Chart.js.", "Ti prego, non usare Chart.js.", 1},
		{"Indonesian, two wordings", "Jangan pakai Chart.js untuk grafik.", "Tolong jangan gunakan Chart.js.", 1},
		{"Indonesian, two names", "Jangan pakai Chart.js.", "Jangan pakai moment.js.", 0},
		{"Polish, for now", "Nie używaj Chart.js.", "Na razie nie używaj Chart.js.", 0},
		{"Spanish, two wordings", "Para el gráfico no uses Chart.js.", "Por favor, no uses Chart.js.", 1},
		{"Portuguese, two wordings", "Não use Chart.js no gráfico.", "Por favor não use Chart.js.", 1},
		{"French, two wordings", "Pour le graphique, n'utilise pas Chart.js.", "N'utilise pas Chart.js s'il te plaît.", 1},
		{"German, two wordings", "Für das Diagramm verwende kein Chart.js.", "Bitte benutze kein Chart.js.", 1},
		{"Dutch, two wordings", "Gebruik geen Chart.js voor de grafiek.", "Alsjeblieft, gebruik geen Chart.js.", 1},
		{"Vietnamese, two wordings", "Đừng dùng Chart.js cho biểu đồ.", "Làm ơn không dùng Chart.js.", 1},
		{"Spanish, two names", "No uses Chart.js.", "No uses moment.js.", 0},
		{"Vietnamese, no package named", "Tôi không dùng Windows.", "Mình không dùng Windows.", 0},
		{"German, for now", "Verwende kein Chart.js.", "Verwende vorerst kein Chart.js.", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ops := notWritten(run(t, nil, userSession("c1", day(17), tt.first), userSession("c2", day(18), tt.sec)).Response.Operations)
			if len(ops) != tt.want {
				t.Fatalf("operations = %+v, want %d", briefs(ops), tt.want)
			}
			if tt.want == 1 && (strings.Join(ops[0].Evidence, ",") != "c1,c2" || !strings.Contains(ops[0].Body, "again in their 1st message of session c2")) {
				t.Errorf("memory %+v does not name both messages: %q", briefs(ops), ops[0].Body)
			}
		})
	}
}

// TestSavedRulesQuoted keeps what a request to write rules into the project's AGENTS.md quotes,
// every line of the quote, without the asking; one to write them into the global instructions
// keeps its asking, which says where they hold.
func TestSavedRulesQuoted(t *testing.T) {
	tests := []struct{ text, want string }{
		{"写入AGENTS.md:\"中文对话，用最简单的方法完成任务\n不要创建新文件，除非我告诉你这么做\"", "中文对话，用最简单的方法完成任务。不要创建新文件，除非我告诉你这么做"},
		{"写入AGENTS.md：提交信息用英文写", "提交信息用英文写"},
		{"帮我写进codex的全局，就是注释要是中文的", "帮我写进codex的全局，就是注释要是中文的"},
	}
	for _, tt := range tests {
		if got := said(t, tt.text); len(got) != 1 || got[0] != tt.want {
			t.Errorf("%q gave %q, want %q", tt.text, got, tt.want)
		}
	}
}
