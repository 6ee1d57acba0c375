package offline

import (
	"slices"
	"strings"
	"testing"

	"github.com/dreamd/dreamd/internal/extract"
	"github.com/dreamd/dreamd/internal/redact"
)

// TestStackFacts is the table of what a person's request states the project is built with, where
// it is deployed and which variables its config files set, in several languages, each written
// from the names; and of the requests, questions, wants, comparisons and tasks that only name
// them.
func TestStackFacts(t *testing.T) {
	tests := []struct {
		text string
		want []string // the memories' descriptions, without their full stop
	}{
		// the stack, said inside a request
		{"@page.tsx 这个项目前端使用 Nuxt 3、Pinia 和 tailwindcss，请帮我加一个登录页。", []string{"The frontend uses Nuxt 3, Pinia and Tailwind CSS"}},
		{"/Generate Rules 本项目后端使用FastAPI，数据库使用PostgreSQL，请生成目录结构。", []string{"The backend uses FastAPI", "The database is PostgreSQL"}},
		{"这个项目是基于Laravel的，请帮我加一个订单模块", []string{"The project uses Laravel"}},
		{"前端是Vue3 + Element Plus，后端是Spring Boot，帮我写一个登录接口", []string{"The backend uses Spring Boot", "The frontend uses Vue 3 and Element Plus"}},
		{"当前项目使用astro+tailwind，现在需要加一个切换暗色模式的按钮", []string{"The project uses Astro and Tailwind CSS"}}, // 切换 toggles a theme here
		{"The frontend is built with SvelteKit and Tailwind, so keep the markup simple.", []string{"The frontend uses SvelteKit and Tailwind CSS"}},
		{"The backend uses Django 5 and the frontend uses Vue 3 with Pinia.", []string{"The backend uses Django 5", "The frontend uses Vue 3 and Pinia"}},
		{"This is a Laravel project, add a route for the invoices.", []string{"The project uses Laravel"}},
		{"Le projet utilise Remix et Prisma, ajoute une page de profil.", []string{"The project uses Remix and Prisma"}},
		{"Le backend tourne sur NestJS, ajoute un endpoint pour les factures.", []string{"The backend uses NestJS"}},
		{"El proyecto usa Angular y Firebase. Agrega un formulario de contacto.", []string{"The project uses Angular and Firebase"}},
		{"O projeto usa React Native com Expo.", []string{"The project uses React Native and Expo"}},
		{"Il progetto usa Flask e SQLite, aggiungi un endpoint per gli ordini.", []string{"The project uses Flask and SQLite"}},
		{"Unser Backend nutzt NestJS und TypeORM.", []string{"The backend uses NestJS and TypeORM"}},
		{"Het project gebruikt Nuxt en Vuetify.", []string{"The project uses Nuxt and Vuetify"}},
		{"Проект использует Next.js и Prisma, добавь страницу настроек.", []string{"The project uses Next.js and Prisma"}},
		{"Dự án này dùng Flutter và Riverpod, thêm màn hình đăng nhập.", []string{"The project uses Flutter and Riverpod"}},
		{"このプロジェクトは Next.js と Supabase を使っています。", []string{"The project uses Next.js and Supabase"}},
		// what kind of project it is
		{"I'm building a Next.js app with Supabase and Tailwind, add a pricing page.", []string{"The project uses Next.js, Supabase and Tailwind CSS"}},
		{"这是一个基于Vue3和Vite的项目，请帮我加一个登录页", []string{"The project uses Vue 3 and Vite"}},
		{"Это проект на Next.js и Prisma, добавь страницу заказов.", []string{"The project uses Next.js and Prisma"}},
		{"C'est un projet Astro avec Tailwind, ajoute une page.", []string{"The project uses Astro and Tailwind CSS"}},
		{"Tengo un proyecto en Django con PostgreSQL.", []string{"The project uses Django and PostgreSQL"}},
		{"Ich habe ein Projekt mit SvelteKit und Supabase.", []string{"The project uses SvelteKit and Supabase"}},
		{"Đây là dự án Flutter dùng Riverpod.", []string{"The project uses Flutter and Riverpod"}},
		{"これはNext.jsのプロジェクトです。", []string{"The project uses Next.js"}},
		{"TypeScriptを使用します。", []string{"The project uses TypeScript"}},
		{"このバグはReactで起きます。", nil},
		{"Next.jsを使用してください。", nil}, // asked for, with no call of the agent's to confirm it
		{"This is a Next.js 14 app using the App Router and Supabase. The login redirects twice.", []string{"The project uses Next.js 14 and Supabase"}},
		{"im building a sveltekit app with drizzle", []string{"The project uses SvelteKit and Drizzle ORM"}},
		{"This is a Next.js app with a weird bug.", nil},
		{"I'm building a React component for the sidebar.", nil}, // a piece of the day's work
		{"I'm building a React app and the build fails.", nil},
		{"这是一个React的bug", nil},
		{"Ya usamos MongoDB, crea el modelo de pedidos.", []string{"The project uses MongoDB"}},
		// where it is deployed
		{"本项目已经用Netlify部署过，发布新版本要怎么做？", []string{"The project is deployed on Netlify"}},
		{"The site is deployed on Vercel; the build takes two minutes.", []string{"The project is deployed on Vercel"}},
		{"La app ya está en Render.com y usamos Postgres.", []string{"The project is deployed on Render", "The project uses PostgreSQL"}},
		{"Le site est hébergé sur Netlify, ajoute un formulaire.", []string{"The project is deployed on Netlify"}},
		{"Сайт развернут на Heroku, добавь логирование.", []string{"The project is deployed on Heroku"}},
		{"After the last merge the login is broken on the railway deploy.", []string{"The project is deployed on Railway"}},
		// which variables a config file sets, never their values
		{"我已经在.env.local里配置了STRIPE_SECRET_KEY和STRIPE_WEBHOOK_SECRET，请实现支付回调", []string{"`STRIPE_SECRET_KEY` and `STRIPE_WEBHOOK_SECRET` are set in `.env.local`"}},
		{"I've set DATABASE_URL=postgres://localhost/shop in .env, use it for the seed script.", []string{"`DATABASE_URL` is set in `.env`"}},
		{"J'ai ajouté MAPBOX_TOKEN dans .env.production.", []string{"`MAPBOX_TOKEN` is set in `.env.production`"}},
		{"ConnectionStrings__Default está en appsettings.Development.json", nil}, // no upper-case name
		{"@appsettings.Development.json the database url is there.", []string{"The database URL is in `appsettings.Development.json`"}},
		{"@.env.local the Stripe keys are here", []string{"The Stripe keys are in `.env.local`"}},
		{"@.env the error is there", nil},
		{"@page.tsx the connection string is there", nil}, // no config file
		{"@config.yaml the problem is there", nil},
		{"I put RESEND_API_KEY in .env.local.", []string{"`RESEND_API_KEY` is set in `.env.local`"}},
		{"Put RESEND_API_KEY in .env.local.", nil},
		{"Ya configuré SMTP_HOST y SMTP_USER en el .env", []string{"`SMTP_HOST` and `SMTP_USER` are set in `.env`"}},
		{"Agrega SMTP_HOST al .env", nil},
		{"REDIS_URL прописан в .env.production", []string{"`REDIS_URL` is set in `.env.production`"}},
		{"Добавь REDIS_URL в .env", nil},
		{"JWT_SECRET steht in der .env", []string{"`JWT_SECRET` is set in `.env`"}},
		{"Tôi đã thêm MAPBOX_TOKEN vào .env.local", []string{"`MAPBOX_TOKEN` is set in `.env.local`"}},
		{"Thêm MAPBOX_TOKEN vào .env.local", nil},
		{"DATABASE_URL は .env に設定済みです", []string{"`DATABASE_URL` is set in `.env`"}},
		{"请在.env里添加REDIS_URL", nil},
		{"DB_HOST and DB_PORT are in config.yaml.", []string{"DB_HOST and DB_PORT are in config.yaml"}}, // forms' own, as said

		// near misses: tasks, wants, questions, comparisons, replacements, denials, pasted output
		{"使用pnpm升级vitepress，注意配置也要同步更新", nil},
		{"这个项目用 Vue 重写一下。", nil},
		{"后端用 FastAPI 写一个接口。", nil},
		{"请在项目中集成 Supabase 登录", nil},
		{"前端要不要用 Next.js？", nil},
		{"我现在想把该项目通过vercel部署应该怎么做", nil},
		{"Should the backend use FastAPI or Django?", nil},
		{"The frontend uses React to render the chart of monthly sales.", nil},
		{"Add Chart.js to the page.", nil},
		{"We need to deploy the app and the database to Railway.", nil},
		{"Let's migrate the frontend from Vue to React.", nil},
		{"The frontend is Vue 2, rewrite the cart page in React.", nil},
		{"本项目前端使用Vue，现在要迁移到React。", nil},
		{"El backend usa Flask, pásalo a FastAPI en vez de eso.", nil},
		{"Фронтенд на Vue, давайте перепишем его на React.", nil},
		{"Проект использует Redux, давай уберём его.", nil},
		{"The app is not deployed on Vercel anymore.", nil},
		{"The frontend uses next steps from the design doc.", nil},
		{"Compare the Netlify deploy with the Vercel one.", nil},
		{"Le projet utilise React ou Vue ?", nil},
		{"Проект не использует Redux.", nil},
		{"У нас ошибка в React.", nil},
		{"数据库使用Supabase的时候报错", nil},
		{"The frontend uses Vite and the build fails on CI.", nil},
		{"Dự án này không dùng Firebase.", nil},
		{"Quiero migrar la base de datos a PostgreSQL.", nil},
		{"I'm using React and this hook fails.", nil},   // weak wording, and no call confirms it
		{"я хочу использовать React.js + Mantine", nil}, // a want no call confirms
		{"▲ Next.js 15.5.4 (Turbopack) - Environments: .env.local", nil},
		{"Add STRIPE_SECRET_KEY to .env.local", nil},
		{".env.local不需要SUPABASE_SERVICE_ROLE_KEY吗", nil},
		{"请写入.env.local: OPENAI_BASE_URL", nil},
		{"OPENAI_API_KEY is not set in .env", nil},
		{"I've set OPENAI_API_KEY=sk-proj-4fJx9QwLmZp2Rt7YbVn8Kd3Hs6Gc1Ae5 in .env", nil}, // a secret's value: nothing of the clause
	}
	for _, tt := range tests {
		got := said(t, tt.text)
		if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
			t.Errorf("%q: memories %q, want %q", tt.text, got, tt.want)
		}
	}
}

// TestTechNames is the table of well-known names read from a clause: their spelling, the version
// said with them, and the names that are part of something else.
func TestTechNames(t *testing.T) {
	tests := []struct{ text, want string }{
		{"Next.js 15、shadcn、tailwind、Lucid icon", "Next.js 15|shadcn/ui|Tailwind CSS|Lucide"},
		{"vitepress+tailwindcss", "VitePress|Tailwind CSS"},
		{"React Native, Expo and sql server", "React Native|Expo|SQL Server"},
		{"vue@3 with pinia", "Vue 3|Pinia"},
		{"reactive forms in express-session and next.config.js", ""},
		{"https://sdk.vercel.ai/docs and @supabase/ssr", ""},
		{"`react` in src/react/app", ""},
		{"flutter_riverpod and Riverpod", "Riverpod"},
		{"vue3 + vite4 and nuxt3", "Vue 3|Vite 4|Nuxt 3"},
		{"sqlite3, mysql8", "SQLite|MySQL 8"},
	}
	for _, tt := range tests {
		var got []string
		for _, n := range techNames(tt.text) {
			got = append(got, n.display())
		}
		if strings.Join(got, "|") != tt.want {
			t.Errorf("techNames(%q) = %q, want %q", tt.text, strings.Join(got, "|"), tt.want)
		}
	}
}

// TestStackConfirmedByCalls checks that the agent's calls in the session that touch what a
// statement names are said in its basis, and that a weakly worded one is kept only with them.
func TestStackConfirmedByCalls(t *testing.T) {
	s := toolSession("s5",
		"user: I want to use React and Mantine for the dashboard.",
		"tool: Bash: npm install @mantine/core @mantine/hooks",
		"tool: added 12 packages",
		"user: 我已在.env.local中配置NEXT_PUBLIC_API_URL，请接上后端",
		"tool: Read: /home/ana/shop/.env.local",
		"tool: NEXT_PUBLIC_API_URL=…",
		"user: I'm using Zustand for the store.",
	)
	res := run(t, nil, s)
	bodies := map[string]string{}
	for _, op := range res.Response.Operations {
		bodies[op.Description] = op.Body
	}
	mantine, ok := bodies["The project uses React and Mantine."]
	if !ok {
		t.Fatalf("the confirmed want is not kept: %v", briefs(res.Response.Operations))
	}
	if !strings.Contains(mantine, "1st message of session s5 on 2026-11-18") || !strings.Contains(mantine, "installed `@mantine/core`") {
		t.Errorf("basis does not name the message and the install: %q", mantine)
	}
	env := bodies["`NEXT_PUBLIC_API_URL` is set in `.env.local`."]
	if !strings.Contains(env, "2nd message") || !strings.Contains(env, "read or edited `.env.local`") {
		t.Errorf("basis does not name the message and the read: %q", env)
	}
	if _, ok := bodies["The project uses Zustand."]; ok {
		t.Errorf("a weakly worded statement no call confirms was kept")
	}
	r, err := redact.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	for d, b := range bodies {
		if found := r.Find(d + "\n" + b); len(found) > 0 {
			t.Errorf("%q reads as a secret (%s): validation would reject it", d, found[0].Kind)
		}
	}
}

// TestStackSetUp: a request that sets the project up with named tools says what it is built with
// once the agent's calls touched or installed them; unconfirmed, or naming a piece of the work
// rather than the project, it says nothing.
func TestStackSetUp(t *testing.T) {
	tests := []struct {
		name  string
		turns []string
		want  []string
	}{
		{"a set-up the agent's edits confirm, its line broken after a preposition",
			[]string{"user: setup project theo hướng của \n\nPrisma + Express + TS Starter", "tool: apply_patch: tsconfig.json", "tool: apply_patch: prisma/schema.prisma"},
			[]string{"The project uses Prisma, Express and TypeScript"}},
		{"a set-up the agent's installs confirm",
			[]string{"user: Create a new app with FastAPI and SQLAlchemy.", "tool: Bash: pip install fastapi sqlalchemy uvicorn"},
			[]string{"The project uses FastAPI and SQLAlchemy"}},
		{"a set-up no call confirms",
			[]string{"user: Crea un proyecto con Django y PostgreSQL."},
			nil},
		{"a piece of the work is not the project",
			[]string{"user: Create a React component with Tailwind for the sidebar.", "tool: Bash: npm install tailwindcss"},
			nil},
	}
	for _, tt := range tests {
		if got := saidIn(t, toolSession("s1", tt.turns...)); !slices.Equal(got, tt.want) {
			t.Errorf("%s: memories %q, want %q", tt.name, got, tt.want)
		}
	}
}

// TestStackFailedCallsConfirmNothing keeps a want no call confirms out, however the transcript
// says its call failed: a SpecStory export's "(failed: …)" on the call's line, or an error that
// names the call.
func TestStackFailedCallsConfirmNothing(t *testing.T) {
	specstory := toolSession("s6",
		"user: I want to use React and Mantine for the dashboard.",
		"tool: Bash: npm install @mantine/core (failed: Could not resolve @mantine/core)")
	named := toolSession("s7",
		"user: I want to use React and Mantine for the dashboard.",
		"tool: Bash: npm install @mantine/core",
		"tool: Bash: ls")
	named.Turns[1].Call, named.Turns[2].Call = "c1", "c2"
	named.Turns = append(named.Turns, extract.Turn{Role: "tool", Text: "npm error 404", IsError: true, Call: "c1"})
	for _, s := range []extract.Session{specstory, named} {
		if got := saidIn(t, s); slices.Contains(got, "The project uses React and Mantine") {
			t.Errorf("session %s: a failed install confirmed the want: %q", s.ID, got)
		}
	}
}

// TestStackReplaces checks that a later statement of the same kind replaces the older fact: the
// database, where the project is deployed, in this run and in the store.
func TestStackReplaces(t *testing.T) {
	res := run(t, nil,
		userSession("a", day(10), "本项目数据库使用Supabase，请加一个表"),
		userSession("b", day(12), "The database is now PostgreSQL, set up the migrations."),
	)
	var got []string
	for _, op := range res.Response.Operations {
		got = append(got, op.Description)
	}
	if strings.Join(got, "|") != "The database is now PostgreSQL, set up the migrations." && strings.Join(got, "|") != "The database is PostgreSQL." {
		t.Errorf("memories %q, want the database once, PostgreSQL", got)
	}
	res = run(t, nil,
		userSession("d", day(10), "本项目前端使用Vue 3和Pinia，请加一个购物车页面"),
		userSession("e", day(12), "The frontend uses React and Mantine, add a settings page."),
		userSession("f", day(13), "The frontend uses Zustand too."),
	)
	got = nil
	for _, op := range res.Response.Operations {
		got = append(got, op.Description)
	}
	if strings.Join(got, "|") != "The frontend uses React and Mantine.|The frontend uses Zustand." {
		t.Errorf("memories %q, want React in place of Vue, and Zustand beside it", got)
	}
	vue := extract.Memory{Name: "frontend-uses-vue-3-pinia", Type: "project", Description: "The frontend uses Vue 3 and Pinia."}
	res = run(t, []extract.Memory{vue}, userSession("g", day(14), "Фронтенд использует React и Mantine, добавь страницу."))
	if ops := res.Response.Operations; len(ops) != 1 || ops[0].Description != "The frontend uses React and Mantine." ||
		!(ops[0].Name == vue.Name || len(ops[0].Supersedes) == 1 && ops[0].Supersedes[0] == vue.Name) {
		t.Errorf("operations = %+v, want React in place of the stored Vue", briefs(ops))
	}
	stored := extract.Memory{Name: "deployed-on-vercel", Type: "project", Description: "The project is deployed on Vercel."}
	res = run(t, []extract.Memory{stored}, userSession("c", day(14), "Le site est déployé sur Netlify, ajoute un formulaire."))
	ops := res.Response.Operations
	if len(ops) != 1 || ops[0].Description != "The project is deployed on Netlify." ||
		!(ops[0].Name == "deployed-on-vercel" || len(ops[0].Supersedes) == 1 && ops[0].Supersedes[0] == "deployed-on-vercel") {
		t.Errorf("operations = %+v, want Netlify in place of Vercel", briefs(ops))
	}
}

// FuzzStackLessons checks that whatever a person types, a stack memory is one line written from
// names: no value after an "=", no line break, and every variable it names was in the text.
func FuzzStackLessons(f *testing.F) {
	for _, seed := range []string{
		"我已在.env.local中配置NEXT_PUBLIC_SUPABASE_URL和NEXT_PUBLIC_SUPABASE_ANON_KEY，如何测试",
		"本项目前端使用Next.js 15、shadcn、tailwind、Lucid icon，数据库使用Supabase",
		"la aplicacion ya esta en railway y ya usamos postgres",
		"I've set A_B=c in .env\nThe app is deployed on Vercel",
		"the vercel deploy", "`react` 项目使用", "vue@", "Next.js 1.2.3.4",
	} {
		f.Add(seed)
	}
	s := &extract.Session{ID: "f", Project: "/p"}
	f.Fuzz(func(t *testing.T, text string) {
		for _, n := range stackLessons(text, s, 1) {
			if strings.ContainsAny(n.rule, "=\n") || !strings.HasSuffix(n.rule, ".") {
				t.Errorf("rule %q of %q", n.rule, text)
			}
			for _, v := range envNames(n.rule) {
				if !strings.Contains(strings.ToValidUTF8(text, ""), v) { // tidy drops invalid bytes
					t.Errorf("rule %q names %s, which %q does not", n.rule, v, text)
				}
			}
		}
		statementsOf(text)
		techNames(text)
	})
}

// TestStripNames removes the names techNames finds, with their versions, and nothing it does not
// find: a version written onto a name, a name of two words with its version, not a path's word.
func TestStripNames(t *testing.T) {
	tests := []struct{ in, want string }{
		{"We use vue3 and Tailwind CSS 4 here", "We use  and  here"},
		{"see src/react/app.ts and Next.js 15", "see src/react/app.ts and "},
	}
	for _, tt := range tests {
		if got := stripNames(tt.in); got != tt.want {
			t.Errorf("stripNames(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
