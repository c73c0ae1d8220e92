package action

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/runledger/runledger/artifact"
	"github.com/runledger/runledger/capture"
	"github.com/runledger/runledger/publish"
	"github.com/runledger/runledger/record"
	"github.com/runledger/runledger/report"
	"github.com/runledger/runledger/store"
)

// step is one run of the action: its inputs, its surroundings and what
// publishing produced so far.
type step struct {
	env          Env
	in           *inputs
	gh           *publish.Step
	st           *store.Store
	started      time.Time
	imageWarning string // the command was not found in the image
	jobURL       string // the job's log page, when GitHub could say
	out          published
}

// published is what publishing produced, for the outputs.
type published struct {
	reportPath, commentURL, artifactID, artifactURL string
	warnings                                        []string
}

func newStep(env Env) (*step, error) {
	if env.NewUploader == nil {
		env.NewUploader = newUploader
	}
	if env.Environ == nil {
		env.Environ = os.Environ
	}
	if env.NewPublisher == nil {
		env.NewPublisher = func(cfg publish.Config) (Publisher, error) { return publish.New(cfg) }
	}
	s := &step{env: env, gh: publish.NewStep(env.Stdout, env.Getenv), started: time.Now()}
	in, err := readInputs(env.Getenv)
	s.gh.Mask(in.token)
	if err != nil {
		return nil, err
	}
	s.in = in
	if s.inImage() {
		if err := checkImageDir(in.dir, env.Getenv("GITHUB_WORKSPACE")); err != nil {
			return nil, err
		}
	}
	if s.st, err = store.Open(in.dir); err != nil {
		return nil, err
	}
	return s, nil
}

func newUploader(getenv func(string) string, stdout io.Writer, retentionDays int) (Uploader, error) {
	u, err := artifact.NewUploader(getenv, nil)
	if err != nil {
		return nil, err
	}
	u.Stdout, u.RetentionDays = stdout, retentionDays
	return u, nil
}

// inImage: the action runs in runledger's own image (the Dockerfile sets
// RUNLEDGER_IMAGE), not from the CLI on the runner.
func (s *step) inImage() bool { return s.env.Getenv(imageEnv) != "" }

// giveBackWorkspace, in the image, hands what the step wrote back to the
// workspace's owner (see giveBack).
func (s *step) giveBackWorkspace() {
	if s.inImage() {
		for _, err := range giveBack(s.env.Getenv("GITHUB_WORKSPACE"), s.in.dir, s.started) {
			s.warnf("give the workspace back to its owner: %s", err)
		}
	}
}

func (s *step) runCommand() (*record.Record, error) {
	var reports []string
	for _, line := range strings.Split(s.in.reports, "\n") {
		if p := strings.TrimSpace(line); p != "" {
			reports = append(reports, p)
		}
	}
	workspace := s.env.Getenv("GITHUB_WORKSPACE")
	if s.env.FitThreads != nil {
		restore := s.env.FitThreads(s.env.Getenv)
		defer restore()
	}
	recs, err := capture.Run(s.st, capture.Options{
		Name: s.in.runName, Argv: []string{"sh", "-c", s.in.command}, Timeout: s.in.timeout,
		Env:         gitSafeDirectory(commandEnv(s.env.Environ()), workspace),
		MaxLogBytes: s.in.maxLogBytes, Retries: s.in.retries, RetryEffects: s.in.retryEffects, Reports: reports,
		CI: capture.CIFromEnv(s.env.Getenv), Version: s.env.Version, Workspace: workspace,
		Stdin: nil, Stdout: s.env.Stdout, Stderr: s.env.Stderr, Cancel: s.env.Cancel,
	})
	if err != nil {
		s.warnf("%v", err)
	}
	if len(recs) == 0 {
		return nil, err
	}
	for _, r := range recs {
		// Why the retries stopped, or went on despite changed files.
		if why := r.RetryRefused + r.RetryAllowed; why != "" {
			s.warnf("%s", why)
		}
	}
	return recs[len(recs)-1], err
}

// commandEnv is the environment a plain `run:` step would give the command:
// the action's inputs (the token among them) and the Actions runtime's
// credentials are the action's, not the tests'. A test that prints its
// environment must not put a token into the logs, the artifact or the comment.
func commandEnv(environ []string) []string {
	var out []string
	for _, kv := range environ {
		name, _, _ := strings.Cut(kv, "=")
		switch {
		case strings.HasPrefix(name, "INPUT_"),
			name == "ACTIONS_RUNTIME_TOKEN", name == "ACTIONS_RESULTS_URL", name == "ACTIONS_RUNTIME_URL":
			continue
		}
		out = append(out, kv)
	}
	return out
}

// finish writes the outputs and decides the step's exit status: the
// command's (fail-on: failure), and 1 for a report that did not pass
// whatever the command's own status; with fail-on: regression, 0 when
// every failure is known to be pre-existing or flaky.
func (s *step) finish(env *report.Envelope, code int) int {
	if s.in.mode == "report" && len(env.Runs) == 1 && env.Runs[0].ExitCode != nil {
		code = *env.Runs[0].ExitCode // the one run published: its status is the step's, as in mode run
	}
	out := publish.Outputs{Status: env.Status, ReportJSON: s.out.reportPath, CommentURL: s.out.commentURL,
		ArtifactID: s.out.artifactID, ArtifactURL: s.out.artifactURL, Regressions: regressionsOutput(env)}
	if code >= 0 {
		out.ExitCode = &code
	}
	for _, r := range env.Runs {
		out.TimedOut = out.TimedOut || r.TimedOut
	}
	if err := s.gh.WriteOutputs(out); err != nil {
		s.warnf("outputs: %s", err)
	}
	switch {
	case s.in.failOn == "never" || env.Status == "passed":
		return 0
	case s.in.failOn == "regression" && env.Regressions != nil && *env.Regressions == 0:
		// Only failures the base branch has too: the step passes, the
		// report and the status output still say failed.
		return 0
	case code > 0:
		return code
	}
	return 1
}

// warnf and errorf print workflow commands (the runner masks the token
// in its log).
func (s *step) warnf(format string, args ...any) {
	s.gh.Warning("runledger: " + fmt.Sprintf(format, args...))
}

func (s *step) errorf(format string, args ...any) {
	s.gh.Error("runledger: " + fmt.Sprintf(format, args...))
}
