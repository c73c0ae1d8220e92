package publish

import (
	"context"
	"fmt"
	"maps"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-github/v62/github"

	"github.com/runledger/runledger/internal/fakegithub"
)

// GitHub's answers for a failing server and a secondary rate limit.
const (
	badGateway    = `{"message":"Server Error"}`
	secondaryBody = `{"message":"You have exceeded a secondary rate limit. Please wait a few minutes before you try again.","documentation_url":"https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits","status":"403"}`
)

const (
	routeList   = fakegithub.RouteList
	routeCreate = fakegithub.RouteCreate
	routeEdit   = fakegithub.RouteEdit
	routeDelete = fakegithub.RouteDelete
	routeUser   = fakegithub.RouteUser
	routePulls  = fakegithub.RoutePulls
)

func leg(i int, status string) Section {
	return Section{
		Key:     fmt.Sprintf("ci.yml/test/os=linux,go=1.%d", i),
		Title:   fmt.Sprintf("test (linux, 1.%d)", i),
		Status:  fmt.Sprintf("**%s** leg %d, exit code 1", status, i),
		Full:    fmt.Sprintf("```\n--- FAIL: TestLeg%d\n    leg_test.go:%d: boom\n```", i, i),
		Compact: fmt.Sprintf("`TestLeg%d` failed", i),
	}
}

func TestUpsertCreatesOnceThenEditsInPlace(t *testing.T) {
	for _, prefix := range []string{"", "/api/v3"} {
		t.Run("prefix="+prefix, func(t *testing.T) {
			f := fakegithub.New(t, prefix)
			p, _ := newTestPublisher(t, f, tokInstallation, nil)
			ctx := context.Background()
			res, err := p.Upsert(ctx, 2, leg(1, "failed"))
			if err != nil || len(res.Warnings) > 0 {
				t.Fatalf("first Upsert: %v %v", err, res.Warnings)
			}
			res2, err := p.Upsert(ctx, 2, leg(1, "passed"))
			if err != nil || len(res2.Warnings) > 0 {
				t.Fatalf("second Upsert: %v %v", err, res2.Warnings)
			}
			cs := f.PRComments(2)
			if len(cs) != 1 || cs[0].User != ActionsBot || res.CommentID != cs[0].ID || res2.CommentID != cs[0].ID {
				t.Fatalf("want one comment by %s edited in place, got %+v (results %d, %d)", ActionsBot, cs, res.CommentID, res2.CommentID)
			}
			if f.CallCount(routeCreate) != 1 || f.CallCount(routeEdit) != 1 {
				t.Errorf("creates %d edits %d, want 1 and 1", f.CallCount(routeCreate), f.CallCount(routeEdit))
			}
			wantURL := fmt.Sprintf("https://ghes.example.test/Codertocat/Hello-World/pull/2#issuecomment-%d", cs[0].ID)
			if res2.CommentURL != wantURL {
				t.Errorf("comment URL %q, want %q", res2.CommentURL, wantURL)
			}
			body := cs[0].Body
			if !strings.HasPrefix(body, CommentMarker) || !strings.Contains(body, "**passed** leg 1") {
				t.Errorf("body lacks marker or new status:\n%s", body)
			}
			// The replaced verdict moves to the section's history.
			if !strings.Contains(body, "- **failed** leg 1, exit code 1") {
				t.Errorf("old status not kept as history:\n%s", body)
			}
		})
	}
}

func TestAuthorDetection(t *testing.T) {
	tests := []struct {
		name, token, override, want string
		userCalls                   int
	}{
		{"installation token answers 403 on /user", tokInstallation, "", ActionsBot, 1},
		{"personal token", tokPersonal, "", "octocat", 1},
		{"override", tokInstallation, "my-app[bot]", "my-app[bot]", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := fakegithub.New(t, "")
			p, _ := newTestPublisher(t, f, tt.token, func(c *Config) { c.Author = tt.override })
			got, err := p.Author(context.Background())
			if err != nil || got != tt.want {
				t.Fatalf("Author = %q, %v; want %q", got, err, tt.want)
			}
			if n := f.CallCount(routeUser); n != tt.userCalls {
				t.Errorf("GET /user called %d times, want %d", n, tt.userCalls)
			}
		})
	}
}

func TestForeignMarkerNeverEdited(t *testing.T) {
	f := fakegithub.New(t, "")
	// Someone pastes our marker, before and after we comment, and one of
	// them even copies our section layout.
	forged := CommentMarker + "\n" + renderBody("## runledger", merge(nil, []Section{leg(1, "passed")}), "")
	f.AddComment(2, "mallory", forged)
	f.AddComment(2, "octocat", CommentMarker+"\nlooks like runledger")
	p, _ := newTestPublisher(t, f, tokInstallation, nil)
	res, err := p.Upsert(context.Background(), 2, leg(1, "failed"))
	if err != nil || len(res.Warnings) > 0 {
		t.Fatalf("Upsert: %v %v", err, res.Warnings)
	}
	cs := f.PRComments(2)
	if len(cs) != 3 || cs[0].Body != forged || cs[2].User != ActionsBot || res.CommentID != cs[2].ID {
		t.Fatalf("want the two foreign comments untouched and our own third, got %+v", cs)
	}
	if f.ForeignEdits() != 0 || f.CallCount(routeEdit) != 0 {
		t.Errorf("foreign edits %d, edits %d", f.ForeignEdits(), f.CallCount(routeEdit))
	}
	if !strings.Contains(cs[2].Body, "**failed** leg 1") {
		t.Errorf("our comment lacks our status:\n%s", cs[2].Body)
	}
}

func TestPaginationFindsOwnCommentOnLaterPage(t *testing.T) {
	f := fakegithub.New(t, "")
	for i := range 150 {
		f.AddComment(2, "octocat", fmt.Sprintf("chatter %d", i))
	}
	p, _ := newTestPublisher(t, f, tokInstallation, nil)
	if _, err := p.Upsert(context.Background(), 2, leg(1, "failed")); err != nil {
		t.Fatal(err)
	}
	lists := f.CallCount(routeList)
	if _, err := p.Upsert(context.Background(), 2, leg(2, "failed")); err != nil {
		t.Fatal(err)
	}
	if f.CallCount(routeCreate) != 1 || f.CallCount(routeEdit) != 1 {
		t.Errorf("creates %d edits %d: the comment on page 2 was not found", f.CallCount(routeCreate), f.CallCount(routeEdit))
	}
	if lists < 4 {
		t.Errorf("%d list calls for two reads of 151 comments; pagination not followed", lists)
	}
}

func TestPermissionProblemsAreWarnings(t *testing.T) {
	tests := []struct {
		name  string
		token string
		setup func(f *fakegithub.Server)
	}{
		{"read-only token on fork PR", tokReadOnly, nil},
		{"403 on comment list", tokInstallation, func(f *fakegithub.Server) {
			f.AddFault(routeList, fault{Status: 403, Body: `{"message":"Resource not accessible by integration","documentation_url":"https://docs.github.com/rest","status":"403"}`})
		}},
		{"404 pull request", tokInstallation, func(f *fakegithub.Server) {
			f.AddFault(routeList, fault{Status: 404, Body: `{"message":"Not Found","documentation_url":"https://docs.github.com/rest","status":"404"}`})
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := fakegithub.New(t, "")
			if tt.setup != nil {
				tt.setup(f)
			}
			p, _ := newTestPublisher(t, f, tt.token, nil)
			res, err := p.Upsert(context.Background(), 2, leg(1, "failed"))
			if err != nil {
				t.Fatalf("a permission problem must not be an error: %v", err)
			}
			if len(res.Warnings) != 1 || res.CommentURL != "" {
				t.Fatalf("want one warning and no URL, got %+v", res)
			}
			if strings.Contains(res.Warnings[0], tt.token) {
				t.Errorf("warning leaks the token: %s", res.Warnings[0])
			}
			if len(f.PRComments(2)) != 0 {
				t.Errorf("a comment was written")
			}
		})
	}
}

func TestOtherErrorsFail(t *testing.T) {
	f := fakegithub.New(t, "")
	p, _ := newTestPublisher(t, f, "ghp_unknownTOKEN", nil)
	_, err := p.Upsert(context.Background(), 2, leg(1, "failed"))
	if err == nil || !strings.Contains(err.Error(), "401") {
		t.Fatalf("want a 401 error, got %v", err)
	}
	if strings.Contains(err.Error(), "ghp_unknownTOKEN") {
		t.Errorf("error leaks the token: %v", err)
	}
}

func TestFakeEnforcesBodyLimit(t *testing.T) {
	f := fakegithub.New(t, "")
	gh := github.NewClient(nil).WithAuthToken(tokInstallation)
	gh.BaseURL.Host, gh.BaseURL.Scheme = strings.TrimPrefix(f.URL(), "http://"), "http"
	body := CommentMarker + strings.Repeat("é", MaxCommentChars)
	_, resp, err := gh.Issues.CreateComment(context.Background(), "o", "r", 2, &github.IssueComment{Body: &body})
	if err == nil || resp.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(err.Error(), "Body is too long") {
		t.Fatalf("want 422 Body is too long, got %v", err)
	}
}

func TestHugeSectionsFitAndKeepEveryStatus(t *testing.T) {
	f := fakegithub.New(t, "")
	p, _ := newTestPublisher(t, f, tokInstallation, nil)
	ctx := context.Background()
	for i := range 6 {
		s := leg(i, "failed")
		s.Full = strings.Repeat("excerpt line with ünïcödé 𝄞\n", 1500) // ~40k chars each
		s.Compact = strings.Repeat("compact 𝄞\n", 300)
		if res, err := p.Upsert(ctx, 2, s); err != nil || len(res.Warnings) > 0 {
			t.Fatalf("Upsert %d: %v %v", i, err, res.Warnings)
		}
	}
	cs := f.PRComments(2)
	if len(cs) != 1 {
		t.Fatalf("%d comments", len(cs))
	}
	if n := chars(cs[0].Body); n > MaxCommentChars {
		t.Fatalf("body has %d characters", n)
	}
	for i := range 6 {
		if !strings.Contains(cs[0].Body, leg(i, "failed").Status) {
			t.Errorf("status of leg %d dropped", i)
		}
	}
	if !strings.Contains(cs[0].Body, sizeNote) {
		t.Errorf("no visible note that excerpts were shortened")
	}
}

// TestConcurrentMatrixJobs runs 20 matrix legs at once against one pull
// request while the fake interleaves reads and writes: no section is lost.
func TestConcurrentMatrixJobs(t *testing.T) {
	f := fakegithub.New(t, "")
	f.SetLatency(fakegithub.JitterLatency(15 * time.Millisecond))
	const legs = 20
	var wg sync.WaitGroup
	results := make([]Result, legs)
	errs := make([]error, legs)
	for i := range legs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// Each job is its own process with its own client; settle
			// pauses are real but scaled down.
			p, clk := newTestPublisher(t, f, tokInstallation, func(c *Config) {
				// Longer than one read-to-write window of the fake
				// (two requests of up to 15 ms plus validation), with
				// room for a loaded machine: at 100 ms, 20 legs under
				// Wine on two cores shared with other builds (load 9)
				// lost a section twice in a row; production's is 2 s.
				c.Settle = 250 * time.Millisecond
				c.MaxTries = 12
			})
			clk.Scale = time.Second
			results[i], errs[i] = p.Upsert(context.Background(), 2, leg(i, "failed"))
		}()
	}
	wg.Wait()
	for i := range legs {
		if errs[i] != nil || len(results[i].Warnings) > 0 {
			t.Errorf("leg %d: %v %v", i, errs[i], results[i].Warnings)
		}
	}
	cs := f.PRComments(2)
	if len(cs) != 1 {
		t.Fatalf("want exactly one comment (duplicates removed), got %d", len(cs))
	}
	want := map[string]string{}
	for i := range legs {
		want[leg(i, "failed").Key] = leg(i, "failed").hash()
	}
	if !current(cs[0].Body, want) {
		t.Fatalf("sections lost:\n%s", cs[0].Body)
	}
	t.Logf("%d API calls for %d legs (%d edits, %d creates)", f.TotalCalls(), legs, f.CallCount(routeEdit), f.CallCount(routeCreate))
}

func TestAggregate256Legs(t *testing.T) {
	f := fakegithub.New(t, "")
	p, _ := newTestPublisher(t, f, tokInstallation, nil)
	var secs []Section
	for i := range 256 {
		s := leg(i, "failed")
		s.Full = strings.Repeat("log line\n", 60)
		secs = append(secs, s)
	}
	res, err := p.Aggregate(context.Background(), 2, secs)
	if err != nil || len(res.Warnings) > 0 {
		t.Fatalf("Aggregate: %v %v", err, res.Warnings)
	}
	// GET /user, a list before and after the pause that spreads
	// creators, one create, one list to confirm.
	if n := f.TotalCalls(); n != 5 {
		t.Errorf("%d API calls for 256 legs, want 5", n)
	}
	cs := f.PRComments(2)
	if len(cs) != 1 || chars(cs[0].Body) > MaxCommentChars {
		t.Fatalf("want one comment within the limit, got %d", len(cs))
	}
	for _, s := range secs {
		if !strings.Contains(cs[0].Body, s.Status) {
			t.Fatalf("status of %s dropped", s.Key)
		}
	}
	// A second aggregate edits in place: list, edit, list.
	before := f.TotalCalls()
	secs[0].Status = "**passed** leg 0"
	if _, err := p.Aggregate(context.Background(), 2, secs); err != nil {
		t.Fatal(err)
	}
	if n := f.TotalCalls() - before; n != 3 || f.CallCount(routeEdit) != 1 {
		t.Errorf("re-aggregate took %d calls and %d edits, want 3 and 1", n, f.CallCount(routeEdit))
	}
}

// TestUpsertThroughFaults: transient answers on every step of an upsert are
// retried with the body intact, and the comment ends up right.
func TestUpsertThroughFaults(t *testing.T) {
	f := fakegithub.New(t, "")
	f.AddFault(routeList, fault{Status: 502, Body: badGateway})
	f.AddFault(routeCreate, fault{Status: 429, Header: map[string]string{"Retry-After": "3"}, Body: `{"message":"slow down"}`},
		fault{Status: 403, Body: secondaryBody})
	p, clk := newTestPublisher(t, f, tokInstallation, nil)
	res, err := p.Upsert(context.Background(), 2, leg(1, "failed"))
	if err != nil || len(res.Warnings) > 0 {
		t.Fatalf("Upsert: %v %v", err, res.Warnings)
	}
	if cs := f.PRComments(2); len(cs) != 1 || !current(cs[0].Body, map[string]string{leg(1, "failed").Key: leg(1, "failed").hash()}) {
		t.Fatalf("comment wrong after retries: %+v", cs)
	}
	if f.CallCount(routeCreate) != 3 {
		t.Errorf("%d create attempts, want 3", f.CallCount(routeCreate))
	}
	var rateWaits int
	for _, d := range clk.Recorded() {
		if d == 3*time.Second || d >= time.Minute {
			rateWaits++
		}
	}
	if rateWaits != 2 {
		t.Errorf("waits %v: want retry-after 3s and a minute for the secondary limit", clk.Recorded())
	}
	for _, b := range f.Bodies() {
		if strings.Contains(b, tokInstallation) {
			t.Fatal("the token was sent in a request body")
		}
	}
}

// TestUpdateOnly: `comment: update-only` edits the existing comment but
// never creates one.
func TestUpdateOnly(t *testing.T) {
	f := fakegithub.New(t, "")
	p, _ := newTestPublisher(t, f, tokInstallation, func(c *Config) { c.UpdateOnly = true })
	ctx := context.Background()
	res, err := p.Upsert(ctx, 2, leg(1, "failed"))
	if err != nil || len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "update-only") {
		t.Fatalf("update-only without a comment: %v %v", err, res.Warnings)
	}
	if n := len(f.PRComments(2)); n != 0 || f.CallCount(routeCreate) != 0 {
		t.Fatalf("update-only created a comment (%d comments)", n)
	}
	creator, _ := newTestPublisher(t, f, tokInstallation, nil)
	if _, err := creator.Upsert(ctx, 2, leg(1, "failed")); err != nil {
		t.Fatal(err)
	}
	if res, err := p.Upsert(ctx, 2, leg(2, "passed")); err != nil || len(res.Warnings) > 0 {
		t.Fatalf("update-only with a comment: %v %v", err, res.Warnings)
	}
	if cs := f.PRComments(2); len(cs) != 1 || !strings.Contains(cs[0].Body, "leg 2") {
		t.Fatalf("the existing comment was not edited: %+v", cs)
	}
}

// TestRunArtifacts: every page of a run's artifact list is read, expired
// artifacts are left out, and an error names the run without the token.
func TestRunArtifacts(t *testing.T) {
	f := fakegithub.New(t, "")
	want := map[string]int64{}
	for i := range 256 {
		name := fmt.Sprintf("runledger-test-leg%d", i)
		want[name] = f.AddArtifact(77, name, false)
	}
	f.AddArtifact(77, "runledger-old", true)
	f.AddArtifact(78, "other-run", false)
	p, _ := newTestPublisher(t, f, tokInstallation, nil)
	got, err := p.RunArtifacts(context.Background(), 77)
	if err != nil || !maps.Equal(got, want) {
		t.Fatalf("RunArtifacts: %d names, %v; want %d", len(got), err, len(want))
	}
	if n := f.CallCount(fakegithub.RouteArtifacts); n != 3 {
		t.Errorf("%d list calls for 257 artifacts, want 3 pages of 100", n)
	}
	f.AddFault(fakegithub.RouteArtifacts, fakegithub.Fault{Status: 404, Body: `{"message":"Not Found","status":"404"}`})
	_, err = p.RunArtifacts(context.Background(), 77)
	if err == nil || !strings.Contains(err.Error(), "run 77") || strings.Contains(err.Error(), tokInstallation) {
		t.Errorf("a 404: %v", err)
	}
}
