P=$FIX/skillproj
printf '{"session_id":"s","hook_event_name":"UserPromptSubmit","cwd":"%s","prompt":"Create a route for invoices, fix the CSS and write the migration"}' "$P" | CLAUDE_PROJECT_DIR=$P $RR hook
