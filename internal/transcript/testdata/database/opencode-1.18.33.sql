-- Sessions OpenCode 1.18.33 wrote against scripts/agents/fakeapi (the lesson, whose `make lint` fails),
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
INSERT INTO session (id, project_id, workspace_id, parent_id, slug, directory, path, title, version, share_url, summary_additions, summary_deletions, summary_files, summary_diffs, metadata, cost, tokens_input, tokens_output, tokens_reasoning, tokens_cache_read, tokens_cache_write, revert, permission, agent, model, time_created, time_updated, time_compacting, time_archived) VALUES ('ses_de6351c6effeD6YitEAC266o7i', 'c38bde42b043ea5aba5ff4611a0965152ae4625b', NULL, NULL, 'happy-engine', '/home/user/src/shop', '', 'Noted.', '1.18.33', NULL, 0, 0, 0, NULL, NULL, 0.0, 200, 20, 0, 0, 0, NULL, '[{"permission":"question","pattern":"*","action":"deny"},{"permission":"plan_enter","pattern":"*","action":"deny"},{"permission":"plan_exit","pattern":"*","action":"deny"}]', 'build', '{"id":"fake-chat","providerID":"fake","variant":"default"}', 1795729056657, 1795729098573, NULL, NULL);
INSERT INTO message (id, session_id, time_created, time_updated, data) VALUES ('msg_219cae76f0013DA0dxPl0cKvRi', 'ses_de6351c6effeD6YitEAC266o7i', 1795729057647, 1795729095909, '{"role":"user","time":{"created":1795729057647},"agent":"build","model":{"providerID":"fake","modelID":"fake-chat"},"summary":{"diffs":[]}}');
INSERT INTO message (id, session_id, time_created, time_updated, data) VALUES ('msg_219cb11cc001HLKBCX6jLgMqh6', 'ses_de6351c6effeD6YitEAC266o7i', 1795729068492, 1795729093425, '{"parentID":"msg_219cae76f0013DA0dxPl0cKvRi","role":"assistant","mode":"build","agent":"build","path":{"cwd":"/home/user/src/shop","root":"/home/user/src/shop"},"cost":0,"tokens":{"total":110,"input":100,"output":10,"reasoning":0,"cache":{"write":0,"read":0}},"modelID":"fake-chat","providerID":"fake","time":{"created":1795729068492,"completed":1795729093405},"finish":"tool-calls"}');
INSERT INTO message (id, session_id, time_created, time_updated, data) VALUES ('msg_219cb73c6001GgNNr4t16nz2MZ', 'ses_de6351c6effeD6YitEAC266o7i', 1795729093574, 1795729098536, '{"parentID":"msg_219cae76f0013DA0dxPl0cKvRi","role":"assistant","mode":"build","agent":"build","path":{"cwd":"/home/user/src/shop","root":"/home/user/src/shop"},"cost":0,"tokens":{"total":110,"input":100,"output":10,"reasoning":0,"cache":{"write":0,"read":0}},"modelID":"fake-chat","providerID":"fake","time":{"created":1795729093574,"completed":1795729098532},"finish":"stop"}');
INSERT INTO part (id, message_id, session_id, time_created, time_updated, data) VALUES ('prt_219cae9150015fAp3x7VQe0dMD', 'msg_219cae76f0013DA0dxPl0cKvRi', 'ses_de6351c6effeD6YitEAC266o7i', 1795729068262, 1795729068311, '{"type":"text","text":"\"Our fixtures live in testdata/golden. Always run make lint before committing. Please run the linter now.\""}');
INSERT INTO part (id, message_id, session_id, time_created, time_updated, data) VALUES ('prt_219cb63fe001dVH2Efok1NywDV', 'msg_219cb11cc001HLKBCX6jLgMqh6', 'ses_de6351c6effeD6YitEAC266o7i', 1795729089534, 1795729089561, '{"snapshot":"0b919d88a591bd39ee0b8e37efc92e5ab949dc31","type":"step-start"}');
INSERT INTO part (id, message_id, session_id, time_created, time_updated, data) VALUES ('prt_219cb6440001zJ0FSMbMXiI53Y', 'msg_219cb11cc001HLKBCX6jLgMqh6', 'ses_de6351c6effeD6YitEAC266o7i', 1795729089601, 1795729091124, '{"type":"tool","tool":"bash","callID":"call_fake000003","state":{"status":"completed","input":{"command":"make lint","description":"Run the linter"},"output":"make: *** No rule to make target ''lint''.  Stop.\n","metadata":{"output":"make: *** No rule to make target ''lint''.  Stop.\n","exit":2,"truncated":false},"title":"make lint","time":{"start":1795729089790,"end":1795729091117}}}');
INSERT INTO part (id, message_id, session_id, time_created, time_updated, data) VALUES ('prt_219cb6e0c001laXidxoJGFC37q', 'msg_219cb11cc001HLKBCX6jLgMqh6', 'ses_de6351c6effeD6YitEAC266o7i', 1795729092109, 1795729092117, '{"reason":"tool-calls","snapshot":"0b919d88a591bd39ee0b8e37efc92e5ab949dc31","type":"step-finish","tokens":{"total":110,"input":100,"output":10,"reasoning":0,"cache":{"write":0,"read":0}},"cost":0}');
INSERT INTO part (id, message_id, session_id, time_created, time_updated, data) VALUES ('prt_219cb7897001uZ00CZRxjzxeWU', 'msg_219cb73c6001GgNNr4t16nz2MZ', 'ses_de6351c6effeD6YitEAC266o7i', 1795729094807, 1795729094866, '{"snapshot":"0b919d88a591bd39ee0b8e37efc92e5ab949dc31","type":"step-start"}');
INSERT INTO part (id, message_id, session_id, time_created, time_updated, data) VALUES ('prt_219cb78ee001ZmLkAEGcax7css', 'msg_219cb73c6001GgNNr4t16nz2MZ', 'ses_de6351c6effeD6YitEAC266o7i', 1795729094895, 1795729094986, '{"type":"text","text":"Done: the tool has answered.","time":{"start":1795729094894,"end":1795729094933}}');
INSERT INTO part (id, message_id, session_id, time_created, time_updated, data) VALUES ('prt_219cb8475001Egr4bOFVsCbFbH', 'msg_219cb73c6001GgNNr4t16nz2MZ', 'ses_de6351c6effeD6YitEAC266o7i', 1795729097845, 1795729097859, '{"reason":"stop","snapshot":"0b919d88a591bd39ee0b8e37efc92e5ab949dc31","type":"step-finish","tokens":{"total":110,"input":100,"output":10,"reasoning":0,"cache":{"write":0,"read":0}},"cost":0}');
