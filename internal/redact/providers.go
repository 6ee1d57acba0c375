package redact

import (
	"encoding/base64"
	"regexp"
	"strings"
)

// providerRules are the credentials a provider issues with a documented prefix and shape. Each
// is one word, found by its prefix: they are cheap to look for and never taken for prose. The
// shapes follow the providers' documentation (GitLab's "token prefixes", Slack's "token types",
// …) and the public rule sets of gitleaks and trufflehog, a little wider where a provider has
// changed its lengths before.
func providerRules() []rule {
	return []rule{
		prefixed("slack-token", `\bxapp-[0-9]+-[A-Za-z0-9-]{10,}`, "xapp-"),
		prefixed("stripe-webhook-secret", `\bwhsec_[A-Za-z0-9+/=]{24,}`, "whsec_"),
		prefixed("gitlab-token",
			`\b(?:glpat|gldt|glrt|glrtr|glft|glsoat|glffct|glcbt|glimt|glagent|gloas|glptt|glwt)-[A-Za-z0-9_.-]{20,}|\bGR1348941[A-Za-z0-9_-]{20,}`,
			"glpat-", "gldt-", "glrt-", "glrtr-", "glft-", "glsoat-", "glffct-", "glcbt-", "glimt-", "glagent-", "gloas-", "glptt-", "glwt-", "GR1348941"),
		prefixed("gitlab-token", `_gitlab_session=([0-9a-z]{32})`, "_gitlab_session="),
		mixed(prefixed("huggingface-token", `\b(?:hf|api_org)_[A-Za-z0-9]{30,}\b`, "hf_", "api_org_")),
		prefixed("digitalocean-token", `\bdo[opr]_v1_[a-f0-9]{64}\b`, "_v1_"),
		prefixed("vault-token", `\bhv[sbr]\.[A-Za-z0-9_-]{20,}`, "hvs.", "hvb.", "hvr."),
		prefixed("shopify-token", `\bshp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}\b`, "shpat_", "shpca_", "shppa_", "shpss_"),
		prefixed("sendgrid-key", `\bSG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{20,}`, "SG."),
		prefixed("twilio-key", `\bSK[0-9a-fA-F]{32}\b`, "SK"),
		prefixed("mailgun-key", `\bkey-[0-9a-f]{32}\b`, "key-"),
		prefixed("mailchimp-key", `\b[0-9a-f]{32}-us[0-9]{1,2}\b`, "-us"),
		prefixed("linear-key", `\blin_(?:api|oauth)_[A-Za-z0-9]{32,}\b`, "lin_api_", "lin_oauth_"),
		prefixed("postman-key", `\bPMAK-[a-f0-9]{24}-[a-f0-9]{34}\b`, "PMAK-"),
		prefixed("doppler-token", `\bdp\.(?:pt|st|sa|ct|scim|audit)\.(?:[a-z0-9_-]{1,80}\.)?[A-Za-z0-9]{40,}`, "dp."),
		prefixed("pulumi-token", `\bpul-[a-f0-9]{40}\b`, "pul-"),
		prefixed("databricks-token", `\bdapi[a-f0-9]{32}(?:-[0-9])?\b`, "dapi"),
		prefixed("grafana-token", `\bglc_[A-Za-z0-9+/]{32,}={0,2}|\bglsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}\b`, "glc_", "glsa_"),
		prefixed("newrelic-key", `\bNR(?:AK|II|JS)-[A-Za-z0-9]{20,}`, "NRAK-", "NRII-", "NRJS-"),
		prefixed("sentry-token", `\bsntry[su]_[A-Za-z0-9+/=_]{40,}`, "sntrys_", "sntryu_"),
		mixed(prefixed("notion-token", `\bntn_[A-Za-z0-9]{40,}\b|\bsecret_[A-Za-z0-9]{43}\b`, "ntn_", "secret_")),
		prefixed("age-secret-key", `\bAGE-SECRET-KEY-1[0-9A-Z]{58}\b`, "AGE-SECRET-KEY-"),
		prefixed("atlassian-token", `\bATATT3[A-Za-z0-9_=-]{100,}`, "ATATT3"),
		prefixed("tailscale-key", `\btskey-[a-z]+-[A-Za-z0-9]+-[A-Za-z0-9]{10,}`, "tskey-"),
		prefixed("docker-token", `\bdckr_(?:pat|oat)_[A-Za-z0-9_-]{20,}`, "dckr_"),
		prefixed("terraform-token", `\b[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_=-]{60,}`, ".atlasv1."),
		prefixed("groq-key", `\bgsk_[A-Za-z0-9]{40,}\b`, "gsk_"),
		prefixed("xai-key", `\bxai-[A-Za-z0-9]{60,}\b`, "xai-"),
		prefixed("perplexity-key", `\bpplx-[A-Za-z0-9]{40,}\b`, "pplx-"),
		prefixed("replicate-token", `\br8_[A-Za-z0-9]{37}\b`, "r8_"),
		prefixed("google-oauth", `\bGOCSPX-[A-Za-z0-9_-]{28}|\bya29\.[A-Za-z0-9_-]{30,}|\b1//0[A-Za-z0-9_-]{40,}`, "GOCSPX-", "ya29.", "1//0"),
		prefixed("azure-client-secret", `\b[A-Za-z0-9_~.]{3}[0-9]Q~[A-Za-z0-9_~.-]{31,34}`, "Q~"),
		prefixed("supabase-key", `\bsbp_[a-f0-9]{40}\b|\bsb_secret_[A-Za-z0-9_-]{20,}`, "sbp_", "sb_secret_"),
		prefixed("planetscale-token", `\bpscale_(?:tkn|pw|oauth)_[A-Za-z0-9_=.-]{32,}`, "pscale_"),
		prefixed("figma-token", `\bfig[dou]_[A-Za-z0-9_-]{40,}`, "figd_", "figo_", "figu_"),
		prefixed("buildkite-token", `\bbkua_[a-f0-9]{40}\b`, "bkua_"),
		mixed(prefixed("alibaba-key", `\bLTAI[A-Za-z0-9]{12,20}\b`, "LTAI")),
		prefixed("square-token", `\bsq0(?:atp|csp)-[A-Za-z0-9_-]{22,}`, "sq0atp-", "sq0csp-"),
		prefixed("flyio-token", `\bfo1_[A-Za-z0-9_-]{39,}|\bfm[12][ar]?_[A-Za-z0-9+/=_-]{64,}`, "fo1_", "fm1", "fm2"),
		prefixed("heroku-key", `\bHRKU-[A-Za-z0-9_-]{40,}`, "HRKU-"),
		prefixed("rubygems-key", `\brubygems_[a-f0-9]{48}\b`, "rubygems_"),
		prefixed("langsmith-key", `\blsv2_(?:pt|sk)_[a-f0-9]{32}_[a-f0-9]{10}\b`, "lsv2_"),
		prefixed("contentful-token", `\bCFPAT-[A-Za-z0-9_-]{40,}`, "CFPAT-"),
		prefixed("cloudflare-key", `\bv1\.0-[a-f0-9]{24}-[a-f0-9]{146}\b`, "v1.0-"),
		prefixed("openrouter-key", `\bsk-or-v1-[a-f0-9]{64}\b`, "sk-or-v1-"),
		prefixed("onepassword-token", `\bops_eyJ[A-Za-z0-9+/=_-]{100,}`, "ops_eyJ"),
		discordBotToken(),
	}
}

// discordBotToken is a Discord bot token: the bot's numeric ID in unpadded base64, a timestamp
// and an HMAC, joined by dots. The ID's digits are what make the shape distinctive: base64 of a
// decimal digit string starts with one of ten letter pairs (the literals), and the first part
// must decode to 17-20 digits, which no identifier or domain name does.
func discordBotToken() rule {
	r := prefixed("discord-bot-token", `\b[MNO][A-Za-z0-9]{22,26}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,38}\b`,
		"MD", "MT", "Mj", "Mz", "ND", "NT", "Nj", "Nz", "OD", "OT")
	keep := r.keep
	r.keep = func(v string) bool { return keep(v) && snowflakeBase64(v[:strings.IndexByte(v, '.')]) }
	return r
}

// snowflakeBase64 reports whether s is unpadded base64 of a Discord ID: 17 to 20 decimal digits.
func snowflakeBase64(s string) bool {
	b, err := base64.RawStdEncoding.DecodeString(s)
	return err == nil && len(b) >= 17 && len(b) <= 20 && allDigits(string(b))
}

// prefixed is a rule for a credential with a distinctive prefix: one word, found where one of the
// literals is, and not a mask ("shpat_xxxx…") or a run of one character.
func prefixed(kind, pattern string, literals ...string) rule {
	return rule{
		kind:     kind,
		re:       regexp.MustCompile(pattern),
		literals: literals,
		word:     true,
		keep:     varied,
	}
}

// mixed narrows a rule to values with upper and lower case letters, for prefixes that ordinary
// identifiers share (`hf_` in Python, `secret_` in any language).
func mixed(r rule) rule {
	keep := r.keep
	r.keep = func(v string) bool { return keep(v) && mixedCase(v) }
	return r
}

// varied holds for text that is not a placeholder and has at least eight different characters:
// generated credentials do, the masks and "xxxx" examples in documentation do not.
func varied(v string) bool {
	if !notPlaceholder(v) || strings.Contains(v, "xxxx") || strings.Contains(v, "XXXX") {
		return false
	}
	var seen [256]bool
	n := 0
	for i := 0; i < len(v); i++ {
		if !seen[v[i]] {
			seen[v[i]] = true
			n++
		}
	}
	return n >= 8
}
