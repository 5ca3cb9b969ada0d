CREATE TABLE "phones" (
	"id" serial PRIMARY KEY NOT NULL,
	"customer_id" integer NOT NULL,
	"phone_country_code" text NOT NULL,
	"phone" text NOT NULL,
	"phone_type" integer DEFAULT 2 NOT NULL,
	"status" text DEFAULT 'secondary' NOT NULL,
	"confirmed" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "phones_digits" CHECK ("phones"."phone_country_code" ~ '^[0-9]{1,4}$' and "phones"."phone" ~ '^[0-9]{4,15}$')
);
--> statement-breakpoint
CREATE TABLE "account_recovery_tasks" (
	"task_id" uuid PRIMARY KEY NOT NULL,
	"user_id" integer,
	"email" text NOT NULL,
	"recovery_email" text NOT NULL,
	"verification_status" text DEFAULT 'pending' NOT NULL,
	"reject_reason" text,
	"attempts" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "approval_requests" (
	"key_hash" text PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"kind" text NOT NULL,
	"temporary_token_hash" text,
	"device_id" integer,
	"details" jsonb NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"answered_by_device_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"answered_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "devices" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"type" text,
	"name" text NOT NULL,
	"link_code_hash" text,
	"link_expires_at" timestamp with time zone,
	"link_failed_attempts" integer DEFAULT 0 NOT NULL,
	"secret_hash" text,
	"push_token" text,
	"approve_method_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"location" text,
	"last_activity_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "ip_privacy_ranges" (
	"id" serial PRIMARY KEY NOT NULL,
	"cidr" text NOT NULL,
	"vpn" boolean DEFAULT false NOT NULL,
	"proxy" boolean DEFAULT false NOT NULL,
	"tor" boolean DEFAULT false NOT NULL,
	"relay" boolean DEFAULT false NOT NULL,
	"hosting" boolean DEFAULT false NOT NULL,
	"service" boolean DEFAULT false NOT NULL,
	"note" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "login_history" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"ip" text NOT NULL,
	"country_code" text,
	"user_agent" text DEFAULT '' NOT NULL,
	"auth_flow" text NOT NULL,
	"result" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "one_time_codes" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"purpose" text NOT NULL,
	"code_hash" text NOT NULL,
	"sent_to" text NOT NULL,
	"payload" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"failed_attempts" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "recovery_codes" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"code_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "sso_authorizations" (
	"authorization_id" uuid PRIMARY KEY NOT NULL,
	"client_id" text NOT NULL,
	"user_id" integer NOT NULL,
	"redirect_uri" text NOT NULL,
	"state" text,
	"scope" text DEFAULT '' NOT NULL,
	"code_hash" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sso_clients" (
	"client_id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"redirect_uris" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "two_step_requests" (
	"req_id" uuid PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"mode" integer NOT NULL,
	"pending_totp_secret" text,
	"code_hash" text,
	"approval_key_hash" text,
	"failed_attempts" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"confirmed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "activated" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "push_migration_deadline" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "two_step_setup_required" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "approval_code_hash" text;--> statement-breakpoint
ALTER TABLE "login_codes" ADD COLUMN "sms_code_hash" text;--> statement-breakpoint
ALTER TABLE "login_codes" ADD COLUMN "approval_key_hash" text;--> statement-breakpoint
ALTER TABLE "login_codes" ADD COLUMN "migration" text;--> statement-breakpoint
ALTER TABLE "phones" ADD CONSTRAINT "phones_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "account_recovery_tasks" ADD CONSTRAINT "account_recovery_tasks_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "approval_requests" ADD CONSTRAINT "approval_requests_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "approval_requests" ADD CONSTRAINT "approval_requests_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "approval_requests" ADD CONSTRAINT "approval_requests_answered_by_device_id_devices_id_fk" FOREIGN KEY ("answered_by_device_id") REFERENCES "public"."devices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "devices" ADD CONSTRAINT "devices_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "login_history" ADD CONSTRAINT "login_history_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "one_time_codes" ADD CONSTRAINT "one_time_codes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recovery_codes" ADD CONSTRAINT "recovery_codes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sso_authorizations" ADD CONSTRAINT "sso_authorizations_client_id_sso_clients_client_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."sso_clients"("client_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sso_authorizations" ADD CONSTRAINT "sso_authorizations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "two_step_requests" ADD CONSTRAINT "two_step_requests_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "phones_customer" ON "phones" USING btree ("customer_id");--> statement-breakpoint
CREATE INDEX "approval_requests_user" ON "approval_requests" USING btree ("user_id","status");--> statement-breakpoint
CREATE UNIQUE INDEX "approval_requests_temporary" ON "approval_requests" USING btree ("temporary_token_hash");--> statement-breakpoint
CREATE INDEX "devices_user" ON "devices" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "devices_secret" ON "devices" USING btree ("secret_hash");--> statement-breakpoint
CREATE INDEX "login_history_user_at" ON "login_history" USING btree ("user_id","at");--> statement-breakpoint
CREATE INDEX "one_time_codes_user_purpose" ON "one_time_codes" USING btree ("user_id","purpose");--> statement-breakpoint
CREATE INDEX "recovery_codes_user" ON "recovery_codes" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "recovery_codes_hash" ON "recovery_codes" USING btree ("user_id","code_hash");