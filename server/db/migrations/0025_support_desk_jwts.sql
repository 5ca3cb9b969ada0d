CREATE TABLE "support_desk_jwts" (
	"jwt_id" uuid PRIMARY KEY NOT NULL,
	"used_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "support_desk_jwts_expires" ON "support_desk_jwts" USING btree ("expires_at");