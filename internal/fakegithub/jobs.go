package fakegithub

import (
	"fmt"
	"net/http"
	"strconv"
	"time"
)

// Job is one job of a workflow run's attempt, as the fake holds it.
type Job struct {
	ID         int64
	Name       string // as GitHub shows it: the job's name with its matrix values
	RunnerName string // the runner it runs on (RUNNER_NAME in its steps)
	Status     string // queued, in_progress, completed
}

// AddJob records a job of attempt of workflow run runID and returns its
// id; its html_url is ServerURL/owner/repo/actions/runs/RUN/job/ID.
func (s *Server) AddJob(runID int64, attempt int, job Job) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.jobs == nil {
		s.jobs = map[[2]int64][]Job{}
	}
	s.nextID++
	job.ID = s.nextID
	if job.Status == "" {
		job.Status = "in_progress"
	}
	k := [2]int64{runID, int64(attempt)}
	s.jobs[k] = append(s.jobs[k], job)
	return job.ID
}

// listJobs answers the jobs of one attempt, GitHub's example reshaped.
func (s *Server) listJobs(w http.ResponseWriter, params map[string]string) {
	run, _ := strconv.ParseInt(params["run_id"], 10, 64)
	attempt, _ := strconv.ParseInt(params["attempt_number"], 10, 64)
	s.mu.Lock()
	jobs := append([]Job(nil), s.jobs[[2]int64{run, attempt}]...)
	s.mu.Unlock()
	full := params["owner"] + "/" + params["repo"]
	list := []any{}
	for _, j := range jobs {
		list = append(list, s.jobJSON(full, run, attempt, j))
	}
	writeJSON(w, http.StatusOK, map[string]any{"total_count": len(list), "jobs": list})
}

func (s *Server) jobJSON(full string, run, attempt int64, j Job) map[string]any {
	m := s.example("job-paginated")["jobs"].([]any)[0].(map[string]any)
	now := time.Now().UTC().Format(time.RFC3339)
	for k, v := range map[string]any{
		"id": j.ID, "run_id": run, "run_attempt": attempt, "node_id": fmt.Sprintf("CR_fake%d", j.ID),
		"name": j.Name, "runner_name": j.RunnerName, "status": j.Status, "started_at": now, "created_at": now,
		"run_url":  fmt.Sprintf("%s/repos/%s/actions/runs/%d", s.APIURL(), full, run),
		"url":      fmt.Sprintf("%s/repos/%s/actions/jobs/%d", s.APIURL(), full, j.ID),
		"html_url": fmt.Sprintf("%s/%s/actions/runs/%d/job/%d", s.ServerURL(), full, run, j.ID),
	} {
		m[k] = v
	}
	if j.Status != "completed" {
		m["conclusion"], m["completed_at"] = nil, nil
	}
	return m
}
