package record

// secretComponents are the parts of a variable's name (split at "_")
// that make its value a secret by default: API_KEY, DB_PASSWORD,
// GITHUB_TOKEN, but not KEYBOARD_LAYOUT or TOKENIZERS_PARALLELISM.
var secretComponents = []string{
	"TOKEN", "TOKENS", "SECRET", "SECRETS", "PASSWORD", "PASSWORDS", "PASSWD", "PASSPHRASE",
	"KEY", "KEYS", "APIKEY", "CREDENTIAL", "CREDENTIALS", "CREDS", "AUTH",
}

// secretNames are the CI providers' and tools' well-known names of
// secrets (globs on the whole name), those the components above miss
// and, for the record, the main ones they catch.
var secretNames = []string{
	// GitHub Actions
	"GITHUB_TOKEN", "GH_TOKEN", "ACTIONS_*_TOKEN", "ACTIONS_RUNTIME_TOKEN", "ACTIONS_ID_TOKEN_REQUEST_TOKEN",
	// GitLab CI
	"CI_JOB_TOKEN", "CI_JOB_JWT", "CI_JOB_JWT_*", "CI_REGISTRY_PASSWORD", "CI_DEPLOY_PASSWORD", "CI_BUILD_TOKEN",
	// Jenkins, CircleCI, Buildkite, Travis, Azure Pipelines
	"CIRCLE_TOKEN", "BUILDKITE_AGENT_ACCESS_TOKEN", "TRAVIS_API_TOKEN", "SYSTEM_ACCESSTOKEN",
	// clouds
	"AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_SECURITY_TOKEN", "AZURE_CLIENT_SECRET",
	"GOOGLE_APPLICATION_CREDENTIALS", "GOOGLE_CREDENTIALS", "DIGITALOCEAN_ACCESS_TOKEN", "HEROKU_API_KEY",
	// registries and package managers
	"NPM_TOKEN", "NODE_AUTH_TOKEN", "TWINE_PASSWORD", "PYPI_TOKEN", "CARGO_REGISTRY_TOKEN",
	"DOCKER_PASSWORD", "DOCKER_AUTH_CONFIG", "GEM_HOST_API_KEY", "NUGET_API_KEY",
	// services whose URLs or DSNs embed a credential
	"VAULT_TOKEN", "CODECOV_TOKEN", "SONAR_TOKEN", "SLACK_WEBHOOK_URL", "SENTRY_DSN", "DATABASE_URL",
}

// notSecretNames name variables the components would catch whose values
// are no secret and which commonly differ between machines, where a
// redaction would only turn a replayable difference into one locate
// cannot try.
var notSecretNames = []string{"SSH_AUTH_SOCK"}
