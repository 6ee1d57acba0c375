-- Sessions Kilo 7.7.7 wrote against scripts/agents/fakeapi (the lesson, whose `make lint` fails),
-- dumped from its database: the tables dreamd reads, as the agent created them, with the
-- temporary HOME replaced by /home/user. Loaded by TestRecordedDatabases.
CREATE TABLE `session` (
          `id` text PRIMARY KEY,
          `project_id` text NOT NULL,
          `workspace_id` text,
          `parent_id` text,
          `slug` text NOT NULL,
          `directory` text NOT NULL,
          `path` text,
          `title` text NOT NULL,
          `version` text NOT NULL,
          `share_url` text,
          `summary_additions` integer,
          `summary_deletions` integer,
          `summary_files` integer,
          `summary_diffs` text,
          `metadata` text,
          `cost` real DEFAULT 0 NOT NULL,
          `tokens_input` integer DEFAULT 0 NOT NULL,
          `tokens_output` integer DEFAULT 0 NOT NULL,
          `tokens_reasoning` integer DEFAULT 0 NOT NULL,
          `tokens_cache_read` integer DEFAULT 0 NOT NULL,
          `tokens_cache_write` integer DEFAULT 0 NOT NULL,
          `revert` text,
          `permission` text,
          `agent` text,
          `model` text,
          `time_created` integer NOT NULL,
          `time_updated` integer NOT NULL,
          `time_compacting` integer,
          `time_archived` integer,
          CONSTRAINT `fk_session_project_id_project_id_fk` FOREIGN KEY (`project_id`) REFERENCES `project`(`id`) ON DELETE CASCADE
        );
CREATE TABLE `message` (
          `id` text PRIMARY KEY,
          `session_id` text NOT NULL,
          `time_created` integer NOT NULL,
          `time_updated` integer NOT NULL,
          `data` text NOT NULL,
          CONSTRAINT `fk_message_session_id_session_id_fk` FOREIGN KEY (`session_id`) REFERENCES `session`(`id`) ON DELETE CASCADE
        );
CREATE TABLE `part` (
          `id` text PRIMARY KEY,
          `message_id` text NOT NULL,
          `session_id` text NOT NULL,
          `time_created` integer NOT NULL,
          `time_updated` integer NOT NULL,
          `data` text NOT NULL,
          CONSTRAINT `fk_part_message_id_message_id_fk` FOREIGN KEY (`message_id`) REFERENCES `message`(`id`) ON DELETE CASCADE
        );
INSERT INTO session (id, project_id, workspace_id, parent_id, slug, directory, path, title, version, share_url, summary_additions, summary_deletions, summary_files, summary_diffs, metadata, cost, tokens_input, tokens_output, tokens_reasoning, tokens_cache_read, tokens_cache_write, revert, permission, agent, model, time_created, time_updated, time_compacting, time_archived) VALUES ('ses_de629b34effePhe3qbY1sLoYRa', '0de68b8976ae14f8811e6ac1527010fad3f766ae', NULL, NULL, 'tidy-mountain', '/home/user/src/shop', '', 'New session - 2026-11-26T21:50:04.466Z', '7.7.7', NULL, NULL, NULL, NULL, NULL, NULL, 0.0, 0, 0, 0, 0, 0, NULL, '[{"permission":"question","pattern":"*","action":"deny"},{"permission":"suggest","pattern":"*","action":"deny"},{"permission":"plan_enter","pattern":"*","action":"deny"},{"permission":"plan_exit","pattern":"*","action":"deny"}]', 'code', '{"id":"fake-chat","providerID":"fake","variant":"default"}', 1795729804466, 1795729915453, NULL, NULL);
INSERT INTO session (id, project_id, workspace_id, parent_id, slug, directory, path, title, version, share_url, summary_additions, summary_deletions, summary_files, summary_diffs, metadata, cost, tokens_input, tokens_output, tokens_reasoning, tokens_cache_read, tokens_cache_write, revert, permission, agent, model, time_created, time_updated, time_compacting, time_archived) VALUES ('ses_de625da75ffeoj1B9ua14gL6O5', '0de68b8976ae14f8811e6ac1527010fad3f766ae', NULL, NULL, 'tidy-star', '/home/user/src/shop', '', 'New session - 2026-11-26T21:54:16.639Z', '7.7.7', NULL, 0, 0, 0, NULL, NULL, 0.0, 200, 20, 0, 0, 0, NULL, '[{"permission":"question","pattern":"*","action":"deny"},{"permission":"suggest","pattern":"*","action":"deny"},{"permission":"plan_enter","pattern":"*","action":"deny"},{"permission":"plan_exit","pattern":"*","action":"deny"}]', 'code', '{"id":"fake-chat","providerID":"fake","variant":"default"}', 1795730056639, 1795730304145, NULL, NULL);
INSERT INTO message (id, session_id, time_created, time_updated, data) VALUES ('msg_219d7f700001pCWwX7fqaX2Bvz', 'ses_de629b34effePhe3qbY1sLoYRa', 1795729913600, 1795729915350, '{"role":"user","time":{"created":1795729913600},"agent":"code","model":{"providerID":"fake","modelID":"fake-chat"}}');
INSERT INTO message (id, session_id, time_created, time_updated, data) VALUES ('msg_219db50c8001aCqLxXF6MOGEsU', 'ses_de625da75ffeoj1B9ua14gL6O5', 1795730133192, 1795730304414, '{"role":"user","time":{"created":1795730133192},"agent":"code","model":{"providerID":"fake","modelID":"fake-chat"},"summary":{"diffs":[]}}');
INSERT INTO message (id, session_id, time_created, time_updated, data) VALUES ('msg_219dba34b001vrh9q42f0n5fuR', 'ses_de625da75ffeoj1B9ua14gL6O5', 1795730154315, 1795730297209, '{"parentID":"msg_219db50c8001aCqLxXF6MOGEsU","role":"assistant","mode":"code","agent":"code","path":{"cwd":"/home/user/src/shop","root":"/home/user/src/shop"},"cost":0,"tokens":{"total":110,"input":100,"output":10,"reasoning":0,"cache":{"write":0,"read":0}},"modelID":"fake-chat","providerID":"fake","time":{"created":1795730154315,"completed":1795730297124},"finish":"tool-calls"}');
INSERT INTO message (id, session_id, time_created, time_updated, data) VALUES ('msg_219ddd66b001ezxvBfIr0ulCo6', 'ses_de625da75ffeoj1B9ua14gL6O5', 1795730298476, 1795730303311, '{"parentID":"msg_219db50c8001aCqLxXF6MOGEsU","role":"assistant","mode":"code","agent":"code","path":{"cwd":"/home/user/src/shop","root":"/home/user/src/shop"},"cost":0,"tokens":{"total":110,"input":100,"output":10,"reasoning":0,"cache":{"write":0,"read":0}},"modelID":"fake-chat","providerID":"fake","time":{"created":1795730298476,"completed":1795730303267},"finish":"stop"}');
INSERT INTO part (id, message_id, session_id, time_created, time_updated, data) VALUES ('prt_219d7fd8f001z3Qcb433CwNHSc', 'msg_219d7f700001pCWwX7fqaX2Bvz', 'ses_de629b34effePhe3qbY1sLoYRa', 1795729915397, 1795729915418, '{"type":"text","text":"Always run make lint before committing. Please run the linter now."}');
INSERT INTO part (id, message_id, session_id, time_created, time_updated, data) VALUES ('prt_219db564c001pfZlnXTqD8faWS', 'msg_219db50c8001aCqLxXF6MOGEsU', 'ses_de625da75ffeoj1B9ua14gL6O5', 1795730134716, 1795730134763, '{"type":"text","text":"Always run make lint before committing. Please run the linter now."}');
INSERT INTO part (id, message_id, session_id, time_created, time_updated, data) VALUES ('prt_219ddb2b7001mVd7awus26e3XU', 'msg_219dba34b001vrh9q42f0n5fuR', 'ses_de625da75ffeoj1B9ua14gL6O5', 1795730289336, 1795730289417, '{"type":"step-start","time":{"start":1795730288923}}');
INSERT INTO part (id, message_id, session_id, time_created, time_updated, data) VALUES ('prt_219ddb3bc001xJOQcHhI5bDRBR', 'msg_219dba34b001vrh9q42f0n5fuR', 'ses_de625da75ffeoj1B9ua14gL6O5', 1795730289596, 1795730295665, '{"type":"tool","tool":"bash","callID":"call_fake000006","state":{"status":"completed","input":{"command":"make lint","description":"Run the linter"},"output":"make: *** No rule to make target ''lint''.  Stop.\n","metadata":{"output":"make: *** No rule to make target ''lint''.  Stop.\n","exit":2,"description":"Run the linter","truncated":false,"approval":{"source":"global","rule":{"permission":"bash","pattern":"*","action":"allow"}}},"title":"Run the linter","time":{"start":1795730289805,"end":1795730295662}}}');
INSERT INTO part (id, message_id, session_id, time_created, time_updated, data) VALUES ('prt_219ddcc3b001FpZPEZTw03UoF7', 'msg_219dba34b001vrh9q42f0n5fuR', 'ses_de625da75ffeoj1B9ua14gL6O5', 1795730295868, 1795730295869, '{"reason":"tool-calls","type":"step-finish","time":{"start":1795730288923,"end":1795730295828,"elapsed":6905},"metrics":{"generation":1.448225923244026,"source":"computed"},"tokens":{"total":110,"input":100,"output":10,"reasoning":0,"cache":{"write":0,"read":0}},"cost":0}');
INSERT INTO part (id, message_id, session_id, time_created, time_updated, data) VALUES ('prt_219dde0d0001yksZ5Oxvd4EKxG', 'msg_219ddd66b001ezxvBfIr0ulCo6', 'ses_de625da75ffeoj1B9ua14gL6O5', 1795730301137, 1795730301236, '{"type":"step-start","time":{"start":1795730301015}}');
INSERT INTO part (id, message_id, session_id, time_created, time_updated, data) VALUES ('prt_219dde15b001tmNI2y6w4kpsZV', 'msg_219ddd66b001ezxvBfIr0ulCo6', 'ses_de625da75ffeoj1B9ua14gL6O5', 1795730301303, 1795730301748, '{"type":"text","text":"Done: the tool has answered.","time":{"start":1795730301302,"end":1795730301684}}');
INSERT INTO part (id, message_id, session_id, time_created, time_updated, data) VALUES ('prt_219dde3a4001Xo6MURsT5fVTuF', 'msg_219ddd66b001ezxvBfIr0ulCo6', 'ses_de625da75ffeoj1B9ua14gL6O5', 1795730301860, 1795730301864, '{"reason":"stop","type":"step-finish","time":{"start":1795730301015,"end":1795730301856,"elapsed":842},"metrics":{"generation":11.876484560570072,"source":"computed"},"tokens":{"total":110,"input":100,"output":10,"reasoning":0,"cache":{"write":0,"read":0}},"cost":0}');
