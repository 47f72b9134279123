#!/usr/bin/env bash
# The action's pull-request comment (`Scripts/github-action.sh comment`, the step after the
# upload): with the `pr-comment: true` input, on `pull_request` events, ONE sticky comment on the
# pull request per artifact, found again by a hidden marker (`<!-- cartrender-pr-comment ARTIFACT -->`)
# in the comments listed through the REST API: created at the first failing run, then updated in
# place; while every frame passes nothing is posted, and an earlier comment is updated to say
# that it passes now. The body is verify's Markdown summary (its links to report files, which
# resolve only inside the artifact, written as plain text) and links to the run and the
# artifact. With `pr-comment-branch`, the report's motion diffs are pushed to that branch
# (the contents API; same-repository pull requests only) and shown inline; otherwise the
# comment says they are in the artifact. On a pull request from a fork GitHub gives the workflow
# a read-only token: nothing is requested, and the job summary says why there is no comment.
# A refusal by GitHub (no `pull-requests: write`) is a warning and a line in the job summary;
# the step never fails the job, whose verdict is verify's.
#
# Environment (GitHub sets the GITHUB_* ones; the action's step sets the INPUT_* ones):
#   INPUT_PR_COMMENT     true to comment; anything else does nothing
#   INPUT_GITHUB_TOKEN   the token (the github-token input, default github.token)
#   INPUT_PR_COMMENT_BRANCH  the branch for inline images (pr-comment-branch); empty: none
#   INPUT_RESULT         pass | fail | error (the run step's result output)
#   INPUT_EXIT_CODE      cartrender's exit status
#   INPUT_REPORT         the report directory
#   INPUT_ARTIFACT       the artifact's name; INPUT_ARTIFACT_URL its page (upload-artifact's output)
#   INPUT_SUMMARY        the Markdown summary verify wrote (the run step's --summary-markdown)
#   GITHUB_EVENT_NAME, GITHUB_EVENT_PATH, GITHUB_REPOSITORY, GITHUB_API_URL, GITHUB_SERVER_URL,
#   GITHUB_RUN_ID, GITHUB_STEP_SUMMARY
# Needs curl and jq (installed with apt-get when missing, as the install step does for curl).
set -euo pipefail
[ "${INPUT_PR_COMMENT:-false}" = true ] || exit 0

summary_line() { [ -z "${GITHUB_STEP_SUMMARY:-}" ] || printf '%s\n\n' "$1" >>"$GITHUB_STEP_SUMMARY"; }
note() { echo "pr-comment: $1"; }

event=${GITHUB_EVENT_NAME:-}
if [ "$event" != pull_request ] && [ "$event" != pull_request_target ]; then
    note "not a pull_request event (${event:-none}): no comment"
    exit 0
fi
# shellcheck source=Scripts/lib/apt.sh
source "$(dirname "$0")/lib/apt.sh"
apt_install_missing curl jq

repo=${GITHUB_REPOSITORY:?}
api=${GITHUB_API_URL:-https://api.github.com}
server=${GITHUB_SERVER_URL:-https://github.com}
run_url="$server/$repo/actions/runs/${GITHUB_RUN_ID:-}"
artifact=${INPUT_ARTIFACT:-cartrender-report}
report=${INPUT_REPORT:-cartrender-report}
number=$(jq -r '.pull_request.number // empty' "${GITHUB_EVENT_PATH:?}")
head=$(jq -r '.pull_request.head.repo.full_name // empty' "$GITHUB_EVENT_PATH")
[ -n "$number" ] || { note "the event has no pull request number: no comment"; exit 0; }

# A fork's pull_request run has a read-only token: say so where the reader looks.
if [ "$event" = pull_request ] && [ -n "$head" ] && [ "$head" != "$repo" ]; then
    note "pull request #$number comes from the fork $head, whose workflows get a read-only token: no comment"
    summary_line "No pull-request comment: this pull request comes from the fork \`$head\`, and GitHub gives workflows of pull requests from forks a read-only token, so the action cannot comment. The report, motion diff included, is the artifact \`$artifact\` of [this run]($run_url)."
    exit 0
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# api METHOD PATH [BODY_FILE]: the response in $work/response, the HTTP status on stdout.
api() {
    local args=(-sS -o "$work/response" -w '%{http_code}' -X "$1"
        -H "Authorization: Bearer ${INPUT_GITHUB_TOKEN:-}" -H "Accept: application/vnd.github+json" -H "X-GitHub-Api-Version: 2022-11-28")
    [ -z "${3:-}" ] || args+=(-H "Content-Type: application/json" --data-binary "@$3")
    # On a connection failure -w still prints the status: 000.
    curl "${args[@]}" "$api$2" 2>"$work/curl.log" || true
}
refused() {
    note "GitHub answered HTTP $1 to $2: no comment"
    echo "::warning::$(printf 'cartrender pr-comment: GitHub answered HTTP %s to %s; the workflow needs permissions: pull-requests: write' "$1" "$2")"
    summary_line "No pull-request comment: GitHub answered HTTP $1 to $2 (the job needs \`permissions: pull-requests: write\`)."
    exit 0
}

marker="<!-- cartrender-pr-comment $artifact -->"
# The comment holding the marker, through every page of the pull request's comments.
existing=
page=1
while :; do
    status=$(api GET "/repos/$repo/issues/$number/comments?per_page=100&page=$page")
    [ "$status" = 200 ] || refused "$status" "GET /repos/$repo/issues/$number/comments"
    existing=$(jq -r --arg m "$marker" '[.[] | select((.body // "") | contains($m))][0].id // empty' "$work/response")
    if [ -n "$existing" ] || [ "$(jq length "$work/response")" != 100 ]; then break; fi
    page=$((page + 1))
done

result=${INPUT_RESULT:-error}
if [ "$result" = pass ] && [ -z "$existing" ]; then
    note "every frame passed: no comment"
    exit 0
fi

# The body: the marker, verify's summary with its report links as plain text, the run and the artifact.
body="$work/body.md"
printf '%s\n' "$marker" >"$body"
if [ -n "${INPUT_SUMMARY:-}" ] && [ -s "$INPUT_SUMMARY" ]; then
    # [label](target) with a target that is not a URL: the label alone.
    sed -E 's/\[([^]]*)\]\(([^h)][^)]*|h[^t][^)]*)\)/\1/g' "$INPUT_SUMMARY" | head -c 50000 >>"$body"
else
    printf '### ❌ cartrender verify ended in an error (exit code %s)\n\nSee the log of the run.\n' "${INPUT_EXIT_CODE:-?}" >>"$body"
fi
printf '\n' >>"$body"
# The motion diffs (one per report.json: one, or one per variant), inline when pushed to the branch.
diffs=()
for f in "$report/report.json" "$report"/*/report.json; do
    [ -f "$f" ] || continue
    file=$(jq -r '.motionDiff.file // empty' "$f")
    [ -n "$file" ] && [ -f "$(dirname "$f")/$file" ] && diffs+=("$(dirname "$f")/$file")
done
if [ "$result" != pass ] && [ ${#diffs[@]} -gt 0 ]; then
    if [ -n "${INPUT_PR_COMMENT_BRANCH:-}" ]; then
        for d in "${diffs[@]}"; do
            path="cartrender-pr-comment/pr-$number/$artifact/${d#"$report"/}"
            # Named by content: a file already there is this one.
            status=$(api GET "/repos/$repo/contents/$path?ref=$INPUT_PR_COMMENT_BRANCH")
            if [ "$status" != 200 ]; then
                { printf '{"message":"cartrender motion diff for #%s","branch":' "$number"
                  jq -Rn --arg b "$INPUT_PR_COMMENT_BRANCH" '$b'
                  printf ',"content":"'; base64 -w0 "$d"; printf '"}'; } >"$work/put.json"
                status=$(api PUT "/repos/$repo/contents/$path" "$work/put.json")
            fi
            if [ "$status" = 200 ] || [ "$status" = 201 ]; then
                printf '**Motion diff** (expected · actual · differences):\n\n![motion diff %s](%s/%s/raw/%s/%s)\n\n' \
                    "${d#"$report"/}" "$server" "$repo" "$INPUT_PR_COMMENT_BRANCH" "$path" >>"$body"
            else
                note "could not push $d to the branch $INPUT_PR_COMMENT_BRANCH (HTTP $status): the comment links the artifact"
                printf 'The motion diff %s is in the artifact (it could not be pushed to %s: HTTP %s).\n\n' "\`${d#"$report"/}\`" "\`$INPUT_PR_COMMENT_BRANCH\`" "$status" >>"$body"
            fi
        done
    else
        printf 'The motion diff (expected · actual · differences, animated) is %s in the artifact.\n\n' "\`${diffs[0]#"$report"/}\`" >>"$body"
    fi
fi
link="the artifact \`$artifact\`"
[ -z "${INPUT_ARTIFACT_URL:-}" ] || link="[the artifact \`$artifact\`]($INPUT_ARTIFACT_URL)"
printf 'Report: %s of [run %s](%s).\n' "$link" "${GITHUB_RUN_ID:-}" "$run_url" >>"$body"
jq -Rs '{body: .}' "$body" >"$work/payload.json"

if [ -n "$existing" ]; then
    status=$(api PATCH "/repos/$repo/issues/comments/$existing" "$work/payload.json")
    [ "$status" = 200 ] || refused "$status" "PATCH /repos/$repo/issues/comments/$existing"
    note "updated comment $existing on pull request #$number"
else
    status=$(api POST "/repos/$repo/issues/$number/comments" "$work/payload.json")
    [ "$status" = 201 ] || refused "$status" "POST /repos/$repo/issues/$number/comments"
    note "commented on pull request #$number ($(jq -r '.html_url // .id' "$work/response"))"
fi
