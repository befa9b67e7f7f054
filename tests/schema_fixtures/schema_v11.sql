BEGIN TRANSACTION;
CREATE TABLE actions (
            game_id BIGINT NOT NULL REFERENCES games(id), seq BIGINT NOT NULL, seat INTEGER, user_id BIGINT,
            action TEXT NOT NULL, legal INTEGER NOT NULL, at DOUBLE PRECISION NOT NULL, events TEXT,
            PRIMARY KEY (game_id, seq));
INSERT INTO "actions" VALUES(1,0,0,81000000000000011,'B12:b7',1,1.79661232947033166888e+09,'[{"key":"pariti.event.step","params":{"path":"c8 \u2192 b7","piece":{"key":"pariti.piece","params":{"colour":"blue","number":12}},"seat":0}}]');
INSERT INTO "actions" VALUES(1,1,1,81000000000000012,'B1:f8',1,1.79661232947252440458e+09,'[{"key":"pariti.event.jump","params":{"jumps":1,"path":"d10 \u2192 f8","piece":{"key":"pariti.piece","params":{"colour":"blue","number":1}},"seat":1}}]');
INSERT INTO "actions" VALUES(1,2,0,81000000000000011,'B2:f3',1,1.79661232947337722778e+09,'[{"key":"pariti.event.step","params":{"path":"e2 \u2192 f3","piece":{"key":"pariti.piece","params":{"colour":"blue","number":2}},"seat":0}}]');
INSERT INTO "actions" VALUES(1,3,1,81000000000000012,'B13:b3',1,1.79661232947433042528e+09,'[{"key":"pariti.event.jump","params":{"jumps":1,"path":"d1 \u2192 b3","piece":{"key":"pariti.piece","params":{"colour":"blue","number":13}},"seat":1}}]');
INSERT INTO "actions" VALUES(1,4,0,81000000000000011,'P14:d3',1,1.79661232947511339185e+09,'[{"key":"pariti.event.jump","params":{"jumps":1,"path":"b1 \u2192 d3","piece":{"key":"pariti.piece","params":{"colour":"pink","number":14}},"seat":0}}]');
INSERT INTO "actions" VALUES(1,5,1,81000000000000012,'B9:d4',1,1.796612329475852251e+09,'[{"key":"pariti.event.step","params":{"path":"c3 \u2192 d4","piece":{"key":"pariti.piece","params":{"colour":"blue","number":9}},"seat":1}}]');
INSERT INTO "actions" VALUES(1,6,0,81000000000000011,'P2:c4',1,1.79661232947660112375e+09,'[{"key":"pariti.event.jump","params":{"jumps":2,"path":"c2 \u2192 e2 \u2192 c4","piece":{"key":"pariti.piece","params":{"colour":"pink","number":2}},"seat":0}}]');
INSERT INTO "actions" VALUES(1,7,1,81000000000000012,'B1:b6',1,1.79661232947748398776e+09,'[{"key":"pariti.event.jump","params":{"jumps":3,"path":"f8 \u2192 d10 \u2192 b8 \u2192 b6","piece":{"key":"pariti.piece","params":{"colour":"blue","number":1}},"seat":1}}]');
INSERT INTO "actions" VALUES(1,8,0,81000000000000011,'B14:c6',1,1.79661232947853851315e+09,'[{"key":"pariti.event.jump","params":{"jumps":3,"path":"e10 \u2192 c8 \u2192 a6 \u2192 c6","piece":{"key":"pariti.piece","params":{"colour":"blue","number":14}},"seat":0}}]');
INSERT INTO "actions" VALUES(1,9,1,81000000000000012,'P13:b3',1,1.79661232947955298421e+09,'[{"key":"pariti.event.step","params":{"path":"a2 \u2192 b3","piece":{"key":"pariti.piece","params":{"colour":"pink","number":13}},"seat":1}},{"key":"pariti.event.pair","params":{"count":1,"number":13,"seat":1,"square":"b3","total":8}}]');
INSERT INTO "actions" VALUES(1,10,0,81000000000000011,'P4:d1',1,1.79661232948035788541e+09,'[{"key":"pariti.event.step","params":{"path":"c1 \u2192 d1","piece":{"key":"pariti.piece","params":{"colour":"pink","number":4}},"seat":0}}]');
INSERT INTO "actions" VALUES(1,11,1,81000000000000012,'B5:e4',1,1.79661232948120093344e+09,'[{"key":"pariti.event.step","params":{"path":"e3 \u2192 e4","piece":{"key":"pariti.piece","params":{"colour":"blue","number":5}},"seat":1}}]');
INSERT INTO "actions" VALUES(1,12,0,81000000000000011,'B8:a8',1,1.79661232948204207422e+09,'[{"key":"pariti.event.jump","params":{"jumps":1,"path":"c10 \u2192 a8","piece":{"key":"pariti.piece","params":{"colour":"blue","number":8}},"seat":0}}]');
INSERT INTO "actions" VALUES(1,13,1,81000000000000012,'P15:e2',1,1.79661232948276853565e+09,'[{"key":"pariti.event.step","params":{"path":"f1 \u2192 e2","piece":{"key":"pariti.piece","params":{"colour":"pink","number":15}},"seat":1}}]');
INSERT INTO "actions" VALUES(1,14,0,81000000000000011,'P14:c3',1,1.79661232948351287834e+09,'[{"key":"pariti.event.step","params":{"path":"d3 \u2192 c3","piece":{"key":"pariti.piece","params":{"colour":"pink","number":14}},"seat":0}}]');
INSERT INTO "actions" VALUES(1,15,1,81000000000000012,'B9:f4',1,1.79661232948423123367e+09,'[{"key":"pariti.event.jump","params":{"jumps":1,"path":"d4 \u2192 f4","piece":{"key":"pariti.piece","params":{"colour":"blue","number":9}},"seat":1}}]');
INSERT INTO "actions" VALUES(1,16,0,81000000000000011,'P8:g3',1,1.79661232948529982567e+09,'[{"key":"pariti.event.step","params":{"path":"g2 \u2192 g3","piece":{"key":"pariti.piece","params":{"colour":"pink","number":8}},"seat":0}}]');
INSERT INTO "actions" VALUES(1,17,1,81000000000000012,'P11:e3',1,1.79661232948617553707e+09,'[{"key":"pariti.event.step","params":{"path":"d2 \u2192 e3","piece":{"key":"pariti.piece","params":{"colour":"pink","number":11}},"seat":1}}]');
INSERT INTO "actions" VALUES(1,18,0,81000000000000011,'B6:e10',1,1796612329.487,'[{"key":"pariti.event.step","params":{"path":"e9 \u2192 e10","piece":{"key":"pariti.piece","params":{"colour":"blue","number":6}},"seat":0}}]');
INSERT INTO "actions" VALUES(1,19,1,81000000000000012,'B11:b4',1,1.79661232948774623866e+09,'[{"key":"pariti.event.jump","params":{"jumps":1,"path":"b2 \u2192 b4","piece":{"key":"pariti.piece","params":{"colour":"blue","number":11}},"seat":1}}]');
INSERT INTO "actions" VALUES(1,20,0,81000000000000011,'P2:c2',1,1.79661232948862409591e+09,'[{"key":"pariti.event.jump","params":{"jumps":1,"path":"c4 \u2192 c2","piece":{"key":"pariti.piece","params":{"colour":"pink","number":2}},"seat":0}}]');
INSERT INTO "actions" VALUES(1,21,1,81000000000000012,'P11:d2',1,1.79661232948933410639e+09,'[{"key":"pariti.event.step","params":{"path":"e3 \u2192 d2","piece":{"key":"pariti.piece","params":{"colour":"pink","number":11}},"seat":1}}]');
INSERT INTO "actions" VALUES(1,22,0,81000000000000011,'P10:e9',1,1.79661232949024152758e+09,'[{"key":"pariti.event.step","params":{"path":"d9 \u2192 e9","piece":{"key":"pariti.piece","params":{"colour":"pink","number":10}},"seat":0}}]');
INSERT INTO "actions" VALUES(1,23,1,81000000000000012,'B11:a4',1,1.79661232949094390866e+09,'[{"key":"pariti.event.step","params":{"path":"b4 \u2192 a4","piece":{"key":"pariti.piece","params":{"colour":"blue","number":11}},"seat":1}}]');
INSERT INTO "actions" VALUES(1,24,0,81000000000000011,'P10:d10',1,1.79661232949163722993e+09,'[{"key":"pariti.event.step","params":{"path":"e9 \u2192 d10","piece":{"key":"pariti.piece","params":{"colour":"pink","number":10}},"seat":0}}]');
INSERT INTO "actions" VALUES(1,25,1,81000000000000012,'P7:d9',1,1.79661232949229907984e+09,'[{"key":"pariti.event.jump","params":{"jumps":1,"path":"b9 \u2192 d9","piece":{"key":"pariti.piece","params":{"colour":"pink","number":7}},"seat":1}}]');
INSERT INTO "actions" VALUES(1,26,0,81000000000000011,'P10:c10',1,1.79661232949301505083e+09,'[{"key":"pariti.event.step","params":{"path":"d10 \u2192 c10","piece":{"key":"pariti.piece","params":{"colour":"pink","number":10}},"seat":0}}]');
INSERT INTO "actions" VALUES(1,27,1,81000000000000012,'B5:g2',1,1.79661232949380087853e+09,'[{"key":"pariti.event.jump","params":{"jumps":1,"path":"e4 \u2192 g2","piece":{"key":"pariti.piece","params":{"colour":"blue","number":5}},"seat":1}}]');
INSERT INTO "actions" VALUES(1,28,0,81000000000000011,'P12:d7',1,1.79661232949465298654e+09,'[{"key":"pariti.event.jump","params":{"jumps":1,"path":"f9 \u2192 d7","piece":{"key":"pariti.piece","params":{"colour":"pink","number":12}},"seat":0}}]');
INSERT INTO "actions" VALUES(1,29,1,81000000000000012,'B3:a5',1,1.79661232949537253379e+09,'[{"key":"pariti.event.jump","params":{"jumps":4,"path":"c9 \u2192 e9 \u2192 e7 \u2192 c7 \u2192 a5","piece":{"key":"pariti.piece","params":{"colour":"blue","number":3}},"seat":1}}]');
INSERT INTO "actions" VALUES(1,30,0,81000000000000011,'P4:c1',1,1.79661232949607610701e+09,'[{"key":"pariti.event.step","params":{"path":"d1 \u2192 c1","piece":{"key":"pariti.piece","params":{"colour":"pink","number":4}},"seat":0}}]');
INSERT INTO "actions" VALUES(1,31,1,81000000000000012,'B11:b4',1,1.79661232949690485003e+09,'[{"key":"pariti.event.step","params":{"path":"a4 \u2192 b4","piece":{"key":"pariti.piece","params":{"colour":"blue","number":11}},"seat":1}}]');
INSERT INTO "actions" VALUES(1,32,0,81000000000000011,'B14:a2',1,1.79661232949770641328e+09,'[{"key":"pariti.event.jump","params":{"jumps":4,"path":"c6 \u2192 a6 \u2192 a4 \u2192 c4 \u2192 a2","piece":{"key":"pariti.piece","params":{"colour":"blue","number":14}},"seat":0}}]');
INSERT INTO "actions" VALUES(1,33,1,81000000000000012,'P15:d1',1,1.79661232949853706362e+09,'[{"key":"pariti.event.step","params":{"path":"e2 \u2192 d1","piece":{"key":"pariti.piece","params":{"colour":"pink","number":15}},"seat":1}}]');
INSERT INTO "actions" VALUES(1,34,0,81000000000000011,'B6:c6',1,1.79661232950510859488e+09,'[{"key":"pariti.event.jump","params":{"jumps":3,"path":"e10 \u2192 c8 \u2192 a6 \u2192 c6","piece":{"key":"pariti.piece","params":{"colour":"blue","number":6}},"seat":0}}]');
INSERT INTO "actions" VALUES(1,35,1,81000000000000012,'B11:c4',1,1.79661232950802516932e+09,'[{"key":"pariti.event.step","params":{"path":"b4 \u2192 c4","piece":{"key":"pariti.piece","params":{"colour":"blue","number":11}},"seat":1}}]');
INSERT INTO "actions" VALUES(1,36,0,81000000000000011,'B8:b9',1,1.79661232951068496705e+09,'[{"key":"pariti.event.step","params":{"path":"a8 \u2192 b9","piece":{"key":"pariti.piece","params":{"colour":"blue","number":8}},"seat":0}}]');
INSERT INTO "actions" VALUES(1,37,1,81000000000000012,'B3:a7',1,1.79661232951407790186e+09,'[{"key":"pariti.event.jump","params":{"jumps":2,"path":"a5 \u2192 c7 \u2192 a7","piece":{"key":"pariti.piece","params":{"colour":"blue","number":3}},"seat":1}}]');
INSERT INTO "actions" VALUES(1,38,0,81000000000000011,'P12:b1',1,1.79661232951511526108e+09,'[{"key":"pariti.event.jump","params":{"jumps":3,"path":"d7 \u2192 b5 \u2192 d3 \u2192 b1","piece":{"key":"pariti.piece","params":{"colour":"pink","number":12}},"seat":0}}]');
INSERT INTO "actions" VALUES(1,39,1,81000000000000012,'P7:e10',1,1796612329.51898,'[{"key":"pariti.event.step","params":{"path":"d9 \u2192 e10","piece":{"key":"pariti.piece","params":{"colour":"pink","number":7}},"seat":1}},{"key":"pariti.event.draw","params":{"turns":30}}]');
INSERT INTO "actions" VALUES(2,0,0,81000000000000012,'r6.5',1,1.79661232952542352673e+09,'[{"key":"parcheesi.event.roll","params":{"dice":"6 + 5","seat":0}}]');
INSERT INTO "actions" VALUES(2,1,0,81000000000000012,'out',1,1796612329.52767,'[{"key":"parcheesi.event.out","params":{"dst":{"key":"parcheesi.square.at","params":{"name":"5"}},"pawn":{"key":"parcheesi.pawn","params":{"colour":"yellow","number":2}}}}]');
INSERT INTO "actions" VALUES(2,2,0,81000000000000012,'Y1+6',1,1.79661232952924656862e+09,'[{"key":"parcheesi.event.move","params":{"dst":{"key":"parcheesi.square.at","params":{"name":"11"}},"pawn":{"key":"parcheesi.pawn","params":{"colour":"yellow","number":1}},"src":{"key":"parcheesi.square.at","params":{"name":"5"}}}},{"key":"parcheesi.event.next","params":{"seat":1}}]');
INSERT INTO "actions" VALUES(2,3,1,81000000000000013,'r3.1',1,1.79661232953078126906e+09,'[{"key":"parcheesi.event.roll","params":{"dice":"3 + 1","seat":1}}]');
INSERT INTO "actions" VALUES(2,4,1,81000000000000013,'B1+4',1,1.79661232953138804433e+09,'[{"key":"parcheesi.event.move","params":{"dst":{"key":"parcheesi.square.at","params":{"name":"26"}},"pawn":{"key":"parcheesi.pawn","params":{"colour":"blue","number":1}},"src":{"key":"parcheesi.square.at","params":{"name":"22"}}}},{"key":"parcheesi.event.next","params":{"seat":2}}]');
INSERT INTO "actions" VALUES(2,5,2,NULL,'r1.4',1,1.79661232953259587287e+09,'[{"key":"parcheesi.event.roll","params":{"dice":"1 + 4","seat":2}}]');
INSERT INTO "actions" VALUES(2,6,2,NULL,'out',1,1.79661233019006872182e+09,'[{"key":"parcheesi.event.out","params":{"dst":{"key":"parcheesi.square.at","params":{"name":"39"}},"pawn":{"key":"parcheesi.pawn","params":{"colour":"red","number":2}}}},{"key":"parcheesi.event.next","params":{"seat":0}}]');
INSERT INTO "actions" VALUES(2,7,0,81000000000000012,'r6.1',1,1.79661233019151687622e+09,'[{"key":"parcheesi.event.roll","params":{"dice":"6 + 1","seat":0}}]');
INSERT INTO "actions" VALUES(2,8,0,81000000000000012,'Y2+6',1,1.79661233019215726847e+09,'[{"key":"parcheesi.event.move","params":{"dst":{"key":"parcheesi.square.at","params":{"name":"11"}},"pawn":{"key":"parcheesi.pawn","params":{"colour":"yellow","number":2}},"src":{"key":"parcheesi.square.at","params":{"name":"5"}}}}]');
INSERT INTO "actions" VALUES(2,9,0,81000000000000012,'Y2+1',1,1.79661233019297528266e+09,'[{"key":"parcheesi.event.move","params":{"dst":{"key":"parcheesi.square.at","params":{"name":"12"}},"pawn":{"key":"parcheesi.pawn","params":{"colour":"yellow","number":2}},"src":{"key":"parcheesi.square.at","params":{"name":"11"}}}},{"key":"parcheesi.event.next","params":{"seat":1}}]');
INSERT INTO "actions" VALUES(2,10,1,81000000000000013,'r6.4',1,1.79661233019357395165e+09,'[{"key":"parcheesi.event.roll","params":{"dice":"6 + 4","seat":1}}]');
INSERT INTO "actions" VALUES(2,11,1,81000000000000013,'B1+6',1,1.79661233019425940508e+09,'[{"key":"parcheesi.event.move","params":{"dst":{"key":"parcheesi.square.at","params":{"name":"32"}},"pawn":{"key":"parcheesi.pawn","params":{"colour":"blue","number":1}},"src":{"key":"parcheesi.square.at","params":{"name":"26"}}}}]');
INSERT INTO "actions" VALUES(2,12,1,81000000000000013,'B1+4',1,1.7966123301948516369e+09,'[{"key":"parcheesi.event.move","params":{"dst":{"key":"parcheesi.square.at","params":{"name":"36"}},"pawn":{"key":"parcheesi.pawn","params":{"colour":"blue","number":1}},"src":{"key":"parcheesi.square.at","params":{"name":"32"}}}},{"key":"parcheesi.event.next","params":{"seat":2}}]');
INSERT INTO "actions" VALUES(2,13,2,NULL,'r1.6',1,1796612330.19529,'[{"key":"parcheesi.event.roll","params":{"dice":"1 + 6","seat":2}}]');
INSERT INTO "actions" VALUES(2,14,2,NULL,'R2+7',1,1.79661233020348238944e+09,'[{"key":"parcheesi.event.move","params":{"dst":{"key":"parcheesi.square.at","params":{"name":"46"}},"pawn":{"key":"parcheesi.pawn","params":{"colour":"red","number":2}},"src":{"key":"parcheesi.square.at","params":{"name":"39"}}}},{"key":"parcheesi.event.next","params":{"seat":0}}]');
INSERT INTO "actions" VALUES(2,15,0,81000000000000012,'r1.1',1,1.79661233020447325711e+09,'[{"key":"parcheesi.event.roll","params":{"dice":"1 + 1","seat":0}}]');
CREATE TABLE away_periods (
            user_id BIGINT NOT NULL, started_at DOUBLE PRECISION NOT NULL, until DOUBLE PRECISION NOT NULL,
            PRIMARY KEY (user_id, started_at));
INSERT INTO "away_periods" VALUES(81000000000000013,1.79661233021449923512e+09,1.79687153021449923509e+09);
CREATE TABLE bot_facts (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE game_people (
            game_id BIGINT NOT NULL REFERENCES games(id), user_id BIGINT NOT NULL, PRIMARY KEY (game_id, user_id));
INSERT INTO "game_people" VALUES(1,81000000000000011);
INSERT INTO "game_people" VALUES(1,81000000000000012);
INSERT INTO "game_people" VALUES(2,81000000000000012);
INSERT INTO "game_people" VALUES(2,81000000000000013);
INSERT INTO "game_people" VALUES(3,81000000000000013);
CREATE TABLE games (
            id INTEGER PRIMARY KEY, guild_id BIGINT, channel_id BIGINT NOT NULL, game TEXT NOT NULL, status TEXT NOT NULL,
            host_id BIGINT NOT NULL, locale TEXT NOT NULL, options TEXT NOT NULL, seats TEXT NOT NULL,
            seed TEXT NOT NULL, state TEXT, version BIGINT NOT NULL DEFAULT 0, board_message_id BIGINT,
            result TEXT, created_at DOUBLE PRECISION NOT NULL, updated_at DOUBLE PRECISION NOT NULL, reminded_version BIGINT, board_version BIGINT, board_status TEXT);
INSERT INTO "games" VALUES(1,81000000000000001,9001,'pariti','finished',81000000000000011,'en','{"lobby_seats":[{"level":null,"locale":"en","name":"ana","user_id":81000000000000011},{"level":null,"locale":"fr","name":"Bruno \ud83c\udfb2","user_id":81000000000000012}],"seating":"random"}','[{"level":null,"locale":"en","name":"ana","user_id":81000000000000011},{"level":null,"locale":"fr","name":"Bruno \ud83c\udfb2","user_id":81000000000000012}]','322641fb411dbbb64c973b4d2fe847c0506550234bd5049ffe230853c1543d50','{"board":[15,28,20,31,16,0,10,14,0,18,27,0,22,5,0,45,30,0,0,2,24,0,0,11,0,0,9,0,0,0,0,0,0,0,0,0,1,6,0,0,0,0,3,12,0,0,0,0,0,0,0,0,0,19,0,0,17,8,0,0,0,0,21,4,25,26,0,23,7,32],"last":[1,23,59,67],"quiet":30,"seat":0,"seed":11663626514243351534,"turn":40}',40,NULL,'{"details":{},"draw":true,"winners":[]}',1.7966123294646391868e+09,1796612329.51898,NULL,NULL,NULL);
INSERT INTO "games" VALUES(2,81000000000000001,9002,'parcheesi','active',81000000000000012,'fr','{"seating":"lobby","turn_time":86400}','[{"level":null,"locale":"fr","name":"Bruno \ud83c\udfb2","user_id":81000000000000012},{"level":null,"locale":"en","name":"carla","user_id":81000000000000013},{"level":"normal","locale":"fr","name":"","user_id":0}]','61775270e209e7f3bc8fdd4a232b3b4f1b751e60783ae17d7fb704eaefa66d4f','{"arrivals":[2,3,5,6,7,8,10,11,0,1,4,9],"bonus":[],"callee":0,"cheats":[],"colours":[0,1,2],"dice":[1,1],"last":-1,"last_move":[9,0,7],"locked":-1,"pos":[6,7,-1,-1,14,-1,-1,-1,0,7,-1,-1],"released":[true,false,true],"repeats":1,"teams":false,"turn":0,"used":0,"winners":[]}',16,NULL,NULL,1.79661232951999163629e+09,1.79661233020447325711e+09,NULL,NULL,NULL);
INSERT INTO "games" VALUES(3,81000000000000001,9003,'barricade','lobby',81000000000000013,'en','{"seating":"random"}','[{"level":null,"locale":"en","name":"carla","user_id":81000000000000013}]','d4558d05410bc4428b04991eaa74606c30c749757a2d129ec78cb4ebd5a11cff',NULL,0,NULL,NULL,1.79661233021310305594e+09,1.79661233021310305594e+09,NULL,NULL,NULL);
CREATE TABLE guilds_left (guild_id BIGINT PRIMARY KEY, left_at DOUBLE PRECISION NOT NULL);
CREATE TABLE seat_votes (
            game_id BIGINT NOT NULL REFERENCES games(id), seat INTEGER NOT NULL, voter_id BIGINT NOT NULL,
            choice TEXT NOT NULL, PRIMARY KEY (game_id, seat, voter_id));
CREATE TABLE server_defaults (guild_id BIGINT PRIMARY KEY, options TEXT NOT NULL);
INSERT INTO "server_defaults" VALUES(81000000000000001,'{"turn_time":43200}');
CREATE TABLE turn_notifications (user_id BIGINT PRIMARY KEY);
INSERT INTO "turn_notifications" VALUES(81000000000000011);
CREATE UNIQUE INDEX one_open_game_per_channel ON games(channel_id) WHERE status IN ('lobby', 'active');
CREATE INDEX games_by_channel ON games(channel_id, id);
CREATE INDEX games_by_guild ON games(guild_id, status);
CREATE INDEX actions_by_user ON actions(user_id);
CREATE INDEX game_people_by_user ON game_people(user_id);
COMMIT;
PRAGMA user_version=11;
